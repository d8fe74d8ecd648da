package io.qdrant.esgateway.adapter.out.qdrant;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@link FakeQdrant}'s {@code POST /collections/{c}/points/query} for dense vectors, with Qdrant 1.19's semantics
 * (guide §8, §11.16): {@code query} as a plain vector or {@code {"nearest": vector}} on the named vector
 * {@code using} (or the collection's unnamed vector); an exact search (every point with that vector that passes {@code filter}; {@code params} change only
 * the cost in Qdrant, so they are accepted and ignored); scores in f32 as Qdrant computes them — {@code Dot} the dot
 * product, {@code Cosine} the dot product of the normalised vectors (Qdrant normalises stored vectors on upsert and
 * the query vector at query time), {@code Euclid} the distance (square root of the summed squares); best first
 * (highest score, smallest distance), ties by point id; {@code score_threshold} a lower bound (an upper bound on the
 * Euclidean distance), inclusive; {@code offset}/{@code limit} (default 10); {@code with_payload} (default
 * {@code false}). Other query forms, prefetches and {@code with_vector} are answered 400 "not supported by the fake".
 */
final class FakeQdrantQuery {
    private FakeQdrantQuery() {
    }

    static JsonNode query(FakeQdrant.Collection c, JsonNode body) {
        if (body.has("prefetch") || (body.has("with_vector") && !body.get("with_vector").equals(
                FakeQdrant.NODES.booleanNode(false)))) {
            throw new FakeQdrant.Answer(400, "Bad request: prefetch and with_vector are not supported by the fake");
        }
        JsonNode query = body.get("query");
        if (query != null && query.isObject() && query.has("nearest")) {
            query = query.get("nearest");
        }
        if (query == null || !query.isArray()) {
            throw new FakeQdrant.Answer(400, "Bad request: only dense nearest queries are supported by the fake");
        }
        String using = body.path("using").asText("");
        JsonNode vectors = c.config.path("vectors");
        boolean unnamed = using.isEmpty() && vectors.has("size");
        JsonNode config = unnamed ? vectors : vectors.path(using);
        if (!unnamed && (using.isEmpty() || !config.isObject())) {
            throw new FakeQdrant.Answer(400, "Wrong input: Not existing vector name error: " + using);
        }
        int size = config.get("size").asInt();
        if (query.size() != size) {
            throw new FakeQdrant.Answer(400, "Wrong input: Vector dimension error: expected dim: " + size + ", got "
                    + query.size());
        }
        String distance = config.get("distance").asText();
        float[] target = floats(query);
        if (distance.equals("Cosine")) {
            target = normalised(target);
        }
        boolean distanceOrder = distance.equals("Euclid");
        record Scored(ObjectNode point, float score) {
        }
        List<Scored> scored = new ArrayList<>();
        for (ObjectNode point : c.points.values()) {
            JsonNode vector = unnamed ? point.path("vector") : point.path("vector").path(using);
            if (!vector.isArray() || !FakeQdrant.matches(body.get("filter"), point)) {
                continue;
            }
            float[] v = floats(vector);
            float score = switch (distance) {
                case "Dot" -> dot(v, target);
                case "Cosine" -> dot(normalised(v), target);
                case "Euclid" -> (float) Math.sqrt(squareDistance(v, target));
                default -> throw new FakeQdrant.Answer(400, "Bad request: distance " + distance
                        + " is not supported by the fake");
            };
            if (body.hasNonNull("score_threshold")) {
                double threshold = body.get("score_threshold").asDouble();
                if (distanceOrder ? score > threshold : score < threshold) {
                    continue;
                }
            }
            scored.add(new Scored(point, score));
        }
        Comparator<Scored> best = distanceOrder ? Comparator.comparingDouble(Scored::score)
                : Comparator.comparingDouble(Scored::score).reversed();
        // c.points iterates in point-id order and the sort is stable: ties stay in point-id order
        scored.sort(best);
        int offset = body.path("offset").asInt(0);
        int limit = body.path("limit").asInt(10);
        ArrayNode points = FakeQdrant.NODES.arrayNode();
        for (int i = offset; i < Math.min(scored.size(), offset + limit); i++) {
            Scored s = scored.get(i);
            ObjectNode r = FakeQdrant.record(s.point(), body.get("with_payload"), false);
            r.put("version", 0);
            r.put("score", s.score());
            points.add(r);
        }
        ObjectNode result = FakeQdrant.NODES.objectNode();
        result.set("points", points);
        return result;
    }

    private static float[] floats(JsonNode array) {
        float[] out = new float[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = (float) array.get(i).asDouble();
        }
        return out;
    }

    /** Qdrant's cosine preprocessing: each component divided by the f32 length (unless it is ~0). */
    static float[] normalised(float[] v) {
        float sum = 0;
        for (float x : v) {
            sum += x * x;
        }
        float length = (float) Math.sqrt(sum);
        if (length < Math.ulp(1f)) {
            return v.clone();
        }
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i] / length;
        }
        return out;
    }

    static float dot(float[] a, float[] b) {
        float sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }

    static float squareDistance(float[] a, float[] b) {
        float sum = 0;
        for (int i = 0; i < a.length; i++) {
            float d = a[i] - b[i];
            sum += d * d;
        }
        return sum;
    }
}
