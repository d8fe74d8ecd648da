package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.document.IndexedValue;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A document's values as {@link AggregationDoc} promises them, computed in the gateway from the values the domain's
 * document parser derives from a source (the complete-scan path): exactly what a backend indexed, so both paths see
 * the same values (keywords distinct in code-point order; numbers ascending with duplicates; floats widened from
 * their float value; dates as epoch millis; booleans 0/1).
 */
public final class ValuesDoc implements AggregationDoc {
    private static final String[] NO_KEYWORDS = new String[0];
    private static final long[] NO_LONGS = new long[0];
    private static final double[] NO_DOUBLES = new double[0];

    private final Map<String, String[]> keywords = new HashMap<>();
    private final Map<String, long[]> longs = new HashMap<>();
    private final Map<String, double[]> doubles = new HashMap<>();
    private final String id;
    private final float score;
    private final java.util.function.IntPredicate filters;

    public ValuesDoc(String id, float score, List<IndexedValue> values, java.util.function.IntPredicate filters) {
        this.id = id;
        this.score = score;
        this.filters = filters;
        Map<String, TreeSet<String>> kw = new HashMap<>();
        Map<String, List<Double>> nums = new HashMap<>();
        Map<String, Boolean> integral = new HashMap<>();
        for (IndexedValue v : values) {
            switch (v) {
                case IndexedValue.Keyword k -> kw.computeIfAbsent(k.field(),
                        f -> new TreeSet<>(Keys::compareCodePoints)).add(k.value());
                case IndexedValue.LongValue l -> addLong(l.field(), l.value());
                case IndexedValue.DateValue d -> addLong(d.field(), d.epochMillis());
                case IndexedValue.BooleanValue b -> addLong(b.field(), b.value() ? 1 : 0);
                case IndexedValue.DoubleValue d -> nums.computeIfAbsent(d.field(), f -> new java.util.ArrayList<>())
                        .add(d.value());
                case IndexedValue.FloatValue f -> nums.computeIfAbsent(f.field(), x -> new java.util.ArrayList<>())
                        .add((double) f.value());
                case IndexedValue.Text t -> {
                }
                case IndexedValue.Vector vec -> {
                }
            }
        }
        kw.forEach((f, set) -> keywords.put(f, set.toArray(String[]::new)));
        nums.forEach((f, list) -> {
            double[] d = list.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            doubles.put(f, d);
            longs.put(f, Arrays.stream(d).mapToLong(x -> (long) x).toArray());
        });
        for (Map.Entry<String, long[]> e : longs.entrySet()) {
            if (!nums.containsKey(e.getKey())) {
                Arrays.sort(e.getValue());
                doubles.put(e.getKey(), Arrays.stream(e.getValue()).asDoubleStream().toArray());
            }
        }
        integral.clear();
    }

    private void addLong(String field, long value) {
        long[] old = longs.get(field);
        long[] next = old == null ? new long[1] : Arrays.copyOf(old, old.length + 1);
        next[next.length - 1] = value;
        longs.put(field, next);
    }

    public String id() {
        return id;
    }

    @Override
    public String[] keywords(String field) {
        return keywords.getOrDefault(field, NO_KEYWORDS);
    }

    @Override
    public long[] longs(String field) {
        return longs.getOrDefault(field, NO_LONGS);
    }

    @Override
    public double[] doubles(String field) {
        return doubles.getOrDefault(field, NO_DOUBLES);
    }

    @Override
    public boolean matches(int filter) {
        return filters.test(filter);
    }

    @Override
    public float score() {
        return score;
    }
}
