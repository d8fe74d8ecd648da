package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A document for collector tests, holding its values as {@link AggregationDoc} promises them (keywords distinct and
 * sorted, numbers sorted with duplicates kept), whatever order they are given in.
 */
final class MemoryDoc implements AggregationDoc {
    private final Map<String, String[]> keywords = new HashMap<>();
    private final Map<String, long[]> longs = new HashMap<>();
    private final Map<String, double[]> doubles = new HashMap<>();
    private boolean[] filters = new boolean[0];
    private float score = Float.NaN;
    private final Map<String, JsonValue> source = new LinkedHashMap<>();
    private static final AtomicLong NEXT_POSITION = new AtomicLong();
    private final long position = NEXT_POSITION.getAndIncrement();
    /** How often this document's stored form was loaded (top_hits must load only the documents it returns). */
    int loads;
    final String id;

    MemoryDoc(String id) {
        this.id = id;
    }

    private void source(String field, List<JsonValue> values) {
        source.put(field, values.size() == 1 ? values.get(0) : new JsonArray(values));
    }

    MemoryDoc keyword(String field, String... values) {
        TreeSet<String> sorted = new TreeSet<>(Keys::compareCodePoints);
        sorted.addAll(Arrays.asList(values));
        keywords.put(field, sorted.toArray(String[]::new));
        source(field, Arrays.stream(values).<JsonValue>map(JsonString::new).toList());
        return this;
    }

    /** An integral (or date, or boolean 0/1) field. */
    MemoryDoc longs(String field, long... values) {
        long[] l = values.clone();
        Arrays.sort(l);
        longs.put(field, l);
        doubles.put(field, Arrays.stream(l).asDoubleStream().toArray());
        source(field, Arrays.stream(values).<JsonValue>mapToObj(JsonNumber::new).toList());
        return this;
    }

    /** A floating-point field. */
    MemoryDoc doubles(String field, double... values) {
        double[] d = values.clone();
        Arrays.sort(d);
        doubles.put(field, d);
        longs.put(field, Arrays.stream(d).mapToLong(x -> (long) x).toArray());
        source(field, Arrays.stream(values).<JsonValue>mapToObj(JsonNumber::new).toList());
        return this;
    }

    MemoryDoc filters(boolean... matches) {
        this.filters = matches.clone();
        return this;
    }

    MemoryDoc score(float score) {
        this.score = score;
        return this;
    }

    @Override
    public String[] keywords(String field) {
        return keywords.getOrDefault(field, new String[0]);
    }

    @Override
    public long[] longs(String field) {
        return longs.getOrDefault(field, new long[0]);
    }

    @Override
    public double[] doubles(String field) {
        return doubles.getOrDefault(field, new double[0]);
    }

    @Override
    public boolean matches(int filter) {
        return filter < filters.length && filters[filter];
    }

    @Override
    public float score() {
        return score;
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public Supplier<StoredDocument> stored() {
        return () -> {
            loads++;
            return new StoredDocument(id, new DocumentVersion(1, 0, 1), new JsonObject(source));
        };
    }
}
