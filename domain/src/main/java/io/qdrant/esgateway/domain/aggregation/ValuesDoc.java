package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.document.IndexedValue;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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

    /** A numeric field's values both ways (see the constructor). */
    private record Numbers(long[] longs, double[] doubles) {
    }

    /** Per field; created at the first put (most documents have few fields, many none of a kind). */
    private Map<String, String[]> keywords = java.util.Collections.emptyMap();
    private Map<String, Numbers> numbers = java.util.Collections.emptyMap();
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
        // one pass over the values, each field's arrays built when the field first appears (no per-field sets,
        // lists or boxed numbers in between): this runs for every document of a scan and every candidate of a
        // sorted page. Keywords: distinct, in code-point order. Numbers: an integral field (long, date, boolean
        // values) gives its longs sorted and its doubles widened; a floating field its doubles sorted and its longs
        // truncated; a field with values of both kinds takes the integral ones.
        IndexedValue[] all = values.toArray(IndexedValue[]::new);
        for (int i = 0; i < all.length; i++) {
            switch (all[i]) {
                case IndexedValue.Keyword k -> {
                    if (!keywords.containsKey(k.field())) {
                        if (keywords.isEmpty()) {
                            keywords = new HashMap<>();
                        }
                        keywords.put(k.field(), keywordsOf(all, i, k.field()));
                    }
                }
                case IndexedValue.LongValue l -> numbers(all, i, l.field());
                case IndexedValue.DateValue d -> numbers(all, i, d.field());
                case IndexedValue.BooleanValue b -> numbers(all, i, b.field());
                case IndexedValue.DoubleValue d -> numbers(all, i, d.field());
                case IndexedValue.FloatValue f -> numbers(all, i, f.field());
                case IndexedValue.Text t -> {
                }
                case IndexedValue.Vector vec -> {
                }
            }
        }
    }

    /** The keywords of {@code field} among {@code all[from..]}: distinct, in code-point order. */
    private static String[] keywordsOf(IndexedValue[] all, int from, String field) {
        String[] out = new String[all.length - from];
        int n = 0;
        for (int i = from; i < all.length; i++) {
            if (all[i] instanceof IndexedValue.Keyword k && k.field().equals(field)) {
                out[n++] = k.value();
            }
        }
        if (n > 1) {
            Arrays.sort(out, 0, n, Keys::compareCodePoints);
            int distinct = 1;
            for (int i = 1; i < n; i++) {
                if (!out[i].equals(out[distinct - 1])) {
                    out[distinct++] = out[i];
                }
            }
            n = distinct;
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    /** The numeric arrays of {@code field} (first seen at {@code all[from]}), unless already built. */
    private void numbers(IndexedValue[] all, int from, String field) {
        if (numbers.containsKey(field)) {
            return;
        }
        if (numbers.isEmpty()) {
            numbers = new HashMap<>();
        }
        long[] integral = new long[all.length - from];
        double[] floating = new double[all.length - from];
        int ni = 0;
        int nf = 0;
        for (int i = from; i < all.length; i++) {
            switch (all[i]) {
                case IndexedValue.LongValue l when l.field().equals(field) -> integral[ni++] = l.value();
                case IndexedValue.DateValue d when d.field().equals(field) -> integral[ni++] = d.epochMillis();
                case IndexedValue.BooleanValue b when b.field().equals(field) -> integral[ni++] = b.value() ? 1L : 0L;
                case IndexedValue.DoubleValue d when d.field().equals(field) -> floating[nf++] = d.value();
                case IndexedValue.FloatValue f when f.field().equals(field) -> floating[nf++] = f.value();
                default -> {
                }
            }
        }
        if (ni > 0) {
            long[] l = Arrays.copyOf(integral, ni);
            Arrays.sort(l);
            double[] d = new double[ni];
            for (int i = 0; i < ni; i++) {
                d[i] = l[i];
            }
            numbers.put(field, new Numbers(l, d));
        } else {
            double[] d = Arrays.copyOf(floating, nf);
            Arrays.sort(d);
            long[] l = new long[nf];
            for (int i = 0; i < nf; i++) {
                l[i] = (long) d[i];
            }
            numbers.put(field, new Numbers(l, d));
        }
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
        Numbers n = numbers.get(field);
        return n == null ? NO_LONGS : n.longs();
    }

    @Override
    public double[] doubles(String field) {
        Numbers n = numbers.get(field);
        return n == null ? NO_DOUBLES : n.doubles();
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
