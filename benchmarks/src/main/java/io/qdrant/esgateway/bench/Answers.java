package io.qdrant.esgateway.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * The correctness check of every measured response: an answer is reduced to what the workload promises (ids in
 * order, full sources, sort values, exact totals, aggregation buckets) and compared with the expected answer computed
 * once, before timing, from the reference engine. What legitimately differs between engines is left out on purpose:
 * {@code took}, {@code _shards}, {@code _score}/{@code max_score} (BM25 scales differ: OpenSearch omits ES's
 * (k1+1) factor), versions and sequence numbers.
 */
public final class Answers {
    private Answers() {
    }

    /** What part of an answer a workload checks. */
    public enum Shape {
        /** {@code GET _doc}: found, {@code _id}, {@code _source}. */
        DOCUMENT,
        /** {@code _search}: total, hits ({@code _id}, {@code _source}, {@code sort}), aggregation buckets. */
        SEARCH,
        /** {@code _search} ranked by score: as {@link #SEARCH} without the sort values (they hold the score). */
        SEARCH_IGNORING_SORT_VALUES,
        /** {@code _count}: the count. */
        COUNT
    }

    /** The checked part of an answer. */
    public static JsonNode canonical(Shape shape, JsonNode answer) {
        ObjectNode out = Json.object();
        switch (shape) {
            case DOCUMENT -> {
                out.set("found", answer.path("found"));
                out.set("_id", answer.path("_id"));
                out.set("_source", answer.path("_source"));
            }
            case COUNT -> out.set("count", answer.path("count"));
            case SEARCH, SEARCH_IGNORING_SORT_VALUES -> {
                JsonNode hits = answer.path("hits");
                out.set("total", hits.path("total"));
                ArrayNode list = out.putArray("hits");
                for (JsonNode hit : hits.path("hits")) {
                    ObjectNode h = list.addObject();
                    h.set("_id", hit.path("_id"));
                    if (hit.has("_source")) {
                        h.set("_source", hit.get("_source"));
                    }
                    if (shape == Shape.SEARCH && hit.has("sort")) {
                        h.set("sort", hit.get("sort"));
                    }
                }
                if (answer.has("aggregations")) {
                    out.set("aggregations", aggregations(answer.get("aggregations")));
                }
            }
            default -> throw new IllegalArgumentException(shape.toString());
        }
        return out;
    }

    /** Buckets as key → doc_count (terms: a list in order; filters: by name), metrics as their value. */
    private static JsonNode aggregations(JsonNode aggs) {
        ObjectNode out = Json.object();
        for (Map.Entry<String, JsonNode> e : aggs.properties()) {
            JsonNode agg = e.getValue();
            JsonNode buckets = agg.path("buckets");
            if (buckets.isArray()) {
                ArrayNode list = Json.array();
                for (JsonNode b : buckets) {
                    ObjectNode c = list.addObject();
                    c.set("key", b.path("key"));
                    c.set("doc_count", b.path("doc_count"));
                }
                out.set(e.getKey(), list);
            } else if (buckets.isObject()) {
                ObjectNode named = Json.object();
                buckets.properties().forEach(b -> named.set(b.getKey(), b.getValue().path("doc_count")));
                out.set(e.getKey(), named);
            } else {
                out.set(e.getKey(), agg.path("value"));
            }
        }
        return out;
    }

    /**
     * The first difference between the expected and the actual checked answer, as a JSON Pointer with both values,
     * or empty when they are equal. Object key order is ignored, array order is not; numbers compare by value.
     */
    public static Optional<String> difference(JsonNode expected, JsonNode actual) {
        return difference("", expected, actual);
    }

    private static Optional<String> difference(String path, JsonNode expected, JsonNode actual) {
        if (expected.isNumber() && actual.isNumber()) {
            return expected.decimalValue().compareTo(actual.decimalValue()) == 0 ? Optional.empty()
                    : Optional.of(describe(path, expected, actual));
        }
        if (expected.getNodeType() != actual.getNodeType()) {
            return Optional.of(describe(path, expected, actual));
        }
        if (expected.isObject()) {
            for (Iterator<String> names = expected.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!actual.has(name)) {
                    return Optional.of(path + "/" + name + ": missing (expected " + brief(expected.get(name)) + ")");
                }
                Optional<String> d = difference(path + "/" + name, expected.get(name), actual.get(name));
                if (d.isPresent()) {
                    return d;
                }
            }
            for (Iterator<String> names = actual.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!expected.has(name)) {
                    return Optional.of(path + "/" + name + ": unexpected " + brief(actual.get(name)));
                }
            }
            return Optional.empty();
        }
        if (expected.isArray()) {
            for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
                Optional<String> d = difference(path + "/" + i, expected.get(i), actual.get(i));
                if (d.isPresent()) {
                    return d;
                }
            }
            return expected.size() == actual.size() ? Optional.empty()
                    : Optional.of(path + ": " + actual.size() + " elements, expected " + expected.size());
        }
        return expected.equals(actual) ? Optional.empty() : Optional.of(describe(path, expected, actual));
    }

    private static String describe(String path, JsonNode expected, JsonNode actual) {
        return (path.isEmpty() ? "/" : path) + ": expected " + brief(expected) + ", got " + brief(actual);
    }

    private static String brief(JsonNode node) {
        String s = node.isMissingNode() ? "(nothing)" : Json.compact(node);
        return s.length() > 200 ? s.substring(0, 200) + "…" : s;
    }
}
