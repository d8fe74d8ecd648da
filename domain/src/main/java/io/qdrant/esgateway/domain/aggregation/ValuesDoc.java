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
    private final long position;
    private final java.util.function.Supplier<io.qdrant.esgateway.domain.document.StoredDocument> stored;

    /** A document that {@code top_hits} cannot read back (position -1; {@link #stored} refuses). */
    public ValuesDoc(String id, float score, List<IndexedValue> values, java.util.function.IntPredicate filters) {
        this(id, score, values, filters, -1, () -> {
            throw io.qdrant.esgateway.domain.error.GatewayException.unsupported("[top_hits] on this path");
        });
    }

    /**
     * {@code position}: the document's place in its index's order (the scan's); {@code stored}: loads its id and
     * full source when {@code top_hits} keeps it (see {@link AggregationDoc#stored}).
     */
    public ValuesDoc(String id, float score, List<IndexedValue> values, java.util.function.IntPredicate filters,
                     long position,
                     java.util.function.Supplier<io.qdrant.esgateway.domain.document.StoredDocument> stored) {
        this.position = position;
        this.stored = stored;
        this.id = id;
        this.score = score;
        this.filters = filters;
        Map<String, TreeSet<String>> kw = new HashMap<>();
        Map<String, List<Long>> ints = new HashMap<>();
        Map<String, List<Double>> floats = new HashMap<>();
        for (IndexedValue v : values) {
            switch (v) {
                case IndexedValue.Keyword k -> kw.computeIfAbsent(k.field(),
                        f -> new TreeSet<>(Keys::compareCodePoints)).add(k.value());
                case IndexedValue.LongValue l -> listOf(ints, l.field()).add(l.value());
                case IndexedValue.DateValue d -> listOf(ints, d.field()).add(d.epochMillis());
                case IndexedValue.BooleanValue b -> listOf(ints, b.field()).add(b.value() ? 1L : 0L);
                case IndexedValue.DoubleValue d -> listOf(floats, d.field()).add(d.value());
                case IndexedValue.FloatValue f -> listOf(floats, f.field()).add((double) f.value());
                case IndexedValue.Text t -> {
                }
                case IndexedValue.Vector vec -> {
                }
            }
        }
        kw.forEach((f, set) -> keywords.put(f, set.toArray(String[]::new)));
        // a floating field's longs are its doubles truncated; an integral field's doubles are its longs widened
        // loops, not streams: this runs for every document of a scan and every candidate of a sorted page
        floats.forEach((f, list) -> {
            double[] d = new double[list.size()];
            for (int i = 0; i < d.length; i++) {
                d[i] = list.get(i);
            }
            Arrays.sort(d);
            long[] l = new long[d.length];
            for (int i = 0; i < d.length; i++) {
                l[i] = (long) d[i];
            }
            doubles.put(f, d);
            longs.put(f, l);
        });
        ints.forEach((f, list) -> {
            long[] l = new long[list.size()];
            for (int i = 0; i < l.length; i++) {
                l[i] = list.get(i);
            }
            Arrays.sort(l);
            double[] d = new double[l.length];
            for (int i = 0; i < l.length; i++) {
                d[i] = l[i];
            }
            longs.put(f, l);
            doubles.put(f, d);
        });
    }

    private static <T> List<T> listOf(Map<String, List<T>> lists, String field) {
        return lists.computeIfAbsent(field, f -> new java.util.ArrayList<>());
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

    @Override
    public long position() {
        return position;
    }

    @Override
    public java.util.function.Supplier<io.qdrant.esgateway.domain.document.StoredDocument> stored() {
        return stored;
    }
}
