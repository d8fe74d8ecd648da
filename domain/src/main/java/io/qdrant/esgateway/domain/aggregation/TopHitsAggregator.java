package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.Aggregation.TopHits;
import io.qdrant.esgateway.domain.aggregation.FieldRef.ValueKind;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNull;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import io.qdrant.esgateway.domain.sort.SortSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * {@code top_hits}: the best {@code from + size} documents of each partition in the aggregation's sort (by score
 * descending without one), ties broken by index name and then by {@link AggregationDoc#position} (lower first). The
 * collector keeps a bounded heap of candidates holding only their sort values and a {@link AggregationDoc#stored}
 * loader; the partial loads the id and source of the documents left in the heap, and nothing else. Partials merge by
 * keeping the best {@code from + size} of both (exact: a document outside a partition's top cannot be in the
 * union's), and count every collected document for {@code hits.total}.
 *
 * <p>A field sort reads the field's doc values ({@code min} for ascending, {@code max} for descending, or the given
 * {@code mode}); a document without a value sorts last ({@code _last}) or first ({@code _first}) and renders ES's
 * substitute sort value ({@code Long.MAX_VALUE}/{@code MIN_VALUE} for integral and date fields, ±Infinity for
 * floating-point ones, {@code null} for keywords).
 */
final class TopHitsAggregator {
    /** Elasticsearch's default {@code index.max_inner_result_window}. */
    static final int MAX_WINDOW = 100;

    private TopHitsAggregator() {
    }

    /**
     * One sort key: its spec and, for a field sort, the field as this index maps it (with the sort's date
     * {@code format}) and the value documents without one sort as ({@code missing: <value>}), or null.
     */
    record Key(SortSpec spec, FieldRef field, Object missing) {
        boolean ascending() {
            return spec.order() == SortSpec.Order.ASC;
        }
    }

    static boolean needsScores(TopHits t) {
        return t.sort().isEmpty() || t.trackScores() || t.sort().stream().anyMatch(s -> s instanceof SortSpec.Score);
    }

    /** The sort keys for {@code index}; fails (as a failure of that index) on a window or field ES refuses. */
    static List<Key> keys(TopHits t, String index, Function<String, FieldRef> fields, LongSupplier now) {
        if ((long) t.from() + t.size() > MAX_WINDOW) {
            throw GatewayException.illegalArgument("Top hits result window is too large, the top hits aggregator ["
                    + t.name() + "]'s from + size must be less than or equal to: [" + MAX_WINDOW + "] but was ["
                    + ((long) t.from() + t.size()) + "]. This limit can be set by changing the"
                    + " [index.max_inner_result_window] index level setting.");
        }
        List<Key> keys = new ArrayList<>();
        for (SortSpec spec : t.sort()) {
            FieldRef field = null;
            Object missing = null;
            if (spec instanceof SortSpec.Field f) {
                field = fields.apply(f.field());
                if (field.kind() == ValueKind.UNMAPPED) {
                    throw GatewayException.illegalArgument("No mapping found for [" + f.field()
                            + "] in order to sort on");
                }
                if (f.format().isPresent()) {
                    if (field.kind() != ValueKind.DATE) {
                        throw GatewayException.unsupported("[format] on a [" + field.kind().name().toLowerCase(
                                java.util.Locale.ROOT) + "] field in a [top_hits] sort");
                    }
                    field = new FieldRef(field.name(), field.kind(),
                            io.qdrant.esgateway.domain.time.DateFormat.of(f.format().get()));
                }
                if (f.missing() instanceof SortSpec.Missing.Value v) {
                    missing = Keys.missingKey(v.value(), field, now);
                }
            }
            keys.add(new Key(spec, field, missing));
        }
        return keys;
    }

    /** A document of the top: its sort values, score and position, and its stored form once loaded. */
    record Entry(String index, Object[] values, float score, long position, StoredDocument document) {
    }

    static Collector collector(TopHits t, String index, List<Key> keys) {
        int window = t.from() + t.size();
        Comparator<Entry> order = order(keys);
        return new Collector() {
            private final PriorityQueue<Candidate> heap = new PriorityQueue<>(
                    Comparator.comparing((Candidate c) -> c.entry, order).reversed());
            private long total;
            private float maxScore = Float.NaN;

            @Override
            public void collect(AggregationDoc doc) {
                if (window == 0) {
                    // Elasticsearch 8.15 creates a Lucene top-docs collector of from + size hits for the first
                    // document of a bucket, which refuses 0: the search fails on that index (not when it is empty)
                    throw GatewayException.illegalArgument("numHits must be > 0; please use"
                            + " TotalHitCountCollectorManager if you just need the total hit count");
                }
                total++;
                float score = needsScores(t) ? doc.score() : Float.NaN;
                if (!Float.isNaN(score) && (Float.isNaN(maxScore) || score > maxScore)) {
                    maxScore = score;
                }
                Entry entry = new Entry(index, values(keys, doc, score), score, doc.position(), null);
                if (heap.size() < window) {
                    heap.add(new Candidate(entry, doc.stored()));
                } else if (order.compare(entry, heap.peek().entry) < 0) {
                    heap.poll();
                    heap.add(new Candidate(entry, doc.stored()));
                }
            }

            @Override
            public Partial partial() {
                List<Entry> top = new ArrayList<>();
                for (Candidate c : heap) {
                    Entry e = c.entry;
                    top.add(new Entry(e.index(), e.values(), e.score(), e.position(), c.loader.get()));
                }
                top.sort(order);
                return new TopHitsPartial(t, keys, total, maxScore, List.copyOf(top));
            }
        };
    }

    private record Candidate(Entry entry, Supplier<StoredDocument> loader) {
    }

    private static Object[] values(List<Key> keys, AggregationDoc doc, float score) {
        Object[] out = new Object[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            Key key = keys.get(i);
            out[i] = switch (key.spec()) {
                case SortSpec.Score s -> score;
                case SortSpec.Doc d -> doc.position();
                case SortSpec.Field f -> fieldValue(key, f, doc);
                case SortSpec.Script sc -> throw GatewayException.unsupported("a [_script] sort in [top_hits]");
            };
        }
        return out;
    }

    private static Object fieldValue(Key key, SortSpec.Field f, AggregationDoc doc) {
        boolean max = f.effectiveMode() == SortSpec.Mode.MAX;
        // the substitute of a missing value: the end the document goes to once the order is applied
        boolean high = key.ascending() == f.missing() instanceof SortSpec.Missing.Last;
        FieldRef field = key.field();
        Object missing = key.missing();
        return switch (field.kind()) {
            case KEYWORD -> {
                String[] v = doc.keywords(field.name());
                yield v.length == 0 ? missing : v[max ? v.length - 1 : 0];
            }
            case LONG, DATE, BOOLEAN -> {
                long[] v = doc.longs(field.name());
                yield v.length > 0 ? (Object) v[max ? v.length - 1 : 0]
                        : missing != null ? missing : (Object) (high ? Long.MAX_VALUE : Long.MIN_VALUE);
            }
            case DOUBLE, FLOAT -> {
                double[] v = doc.doubles(field.name());
                yield v.length > 0 ? (Object) v[max ? v.length - 1 : 0]
                        : missing != null ? missing : (Object) (high ? Double.POSITIVE_INFINITY
                        : Double.NEGATIVE_INFINITY);
            }
            case UNMAPPED -> throw new IllegalStateException("unmapped sort field");
        };
    }

    /** Best first: the sort keys, then the index name, then the position. */
    static Comparator<Entry> order(List<Key> keys) {
        Comparator<Entry> byValues = (a, b) -> {
            if (keys.isEmpty()) {
                return Float.compare(b.score(), a.score());
            }
            for (int i = 0; i < keys.size(); i++) {
                Key key = keys.get(i);
                Object x = a.values()[i];
                Object y = b.values()[i];
                int c;
                if (x == null || y == null) {
                    // a missing keyword: first or last whatever the order
                    boolean last = !(key.spec() instanceof SortSpec.Field f
                            && f.missing() instanceof SortSpec.Missing.First);
                    c = x == y ? 0 : (x == null) == last ? 1 : -1;
                } else {
                    c = Keys.compare(x, y);
                    if (!key.ascending()) {
                        c = -c;
                    }
                }
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
        return byValues.thenComparing(Entry::index).thenComparingLong(Entry::position);
    }

    record TopHitsPartial(TopHits t, List<Key> keys, long total, float maxScore, List<Entry> top)
            implements Partial {
        @Override
        public Partial merge(Partial other) {
            TopHitsPartial o = (TopHitsPartial) other;
            List<Entry> all = new ArrayList<>(top);
            all.addAll(o.top);
            all.sort(order(keys));
            List<Entry> kept = List.copyOf(all.subList(0, Math.min(all.size(), t.from() + t.size())));
            float best = Float.isNaN(maxScore) ? o.maxScore
                    : Float.isNaN(o.maxScore) ? maxScore : Math.max(maxScore, o.maxScore);
            return new TopHitsPartial(t, keys, total + o.total, best, kept);
        }

        @Override
        public String typedName() {
            return "top_hits";
        }

        @Override
        public JsonValue render(boolean typedKeys) {
            boolean scored = t.sort().isEmpty() || t.trackScores();
            List<JsonValue> hits = new ArrayList<>();
            for (int i = t.from(); i < top.size(); i++) {
                Entry e = top.get(i);
                JsonObjectBuilder hit = JsonObjectBuilder.object().put("_index", e.index())
                        .put("_id", e.document().id())
                        .put("_score", scored ? floatNumber(e.score()) : JsonNull.INSTANCE);
                if (t.source().fetch()) {
                    hit.put("_source", t.source().apply(e.document().source()));
                }
                if (!t.sort().isEmpty()) {
                    List<JsonValue> sort = new ArrayList<>();
                    for (int k = 0; k < keys.size(); k++) {
                        sort.add(sortValue(keys.get(k), e.values()[k]));
                    }
                    hit.put("sort", new JsonArray(sort));
                }
                hits.add(hit.build());
            }
            JsonObjectBuilder out = JsonObjectBuilder.object()
                    .put("total", JsonObjectBuilder.object().put("value", total).put("relation", "eq").build())
                    .put("max_score", scored ? floatNumber(maxScore) : JsonNull.INSTANCE)
                    .put("hits", new JsonArray(hits));
            return JsonObjectBuilder.object().put("hits", out.build()).build();
        }
    }

    private static JsonValue sortValue(Key key, Object value) {
        if (value == null) {
            return JsonNull.INSTANCE;
        }
        return switch (key.spec()) {
            case SortSpec.Score s -> floatNumber((Float) value);
            case SortSpec.Doc d -> new JsonNumber((Long) value);
            case SortSpec.Field f -> switch (value) {
                case String s -> new JsonString(s);
                // a missing date's substitute is formatted too ("+292278994-08-17"), as ES does
                case Long l when key.field().kind() == ValueKind.DATE && f.format().isPresent() ->
                        new JsonString(key.field().format().format(l));
                case Long l -> new JsonNumber(l);
                case Double d when key.field().kind() == ValueKind.FLOAT -> floatNumber((float) (double) d);
                case Double d -> StatsAggregator.number(d);
                default -> throw new IllegalStateException("sort value " + value);
            };
            case SortSpec.Script sc -> throw GatewayException.unsupported("a [_script] sort in [top_hits]");
        };
    }

    /** A float as Elasticsearch writes it (its shortest decimal form; NaN as null, ±Infinity as strings). */
    private static JsonValue floatNumber(float f) {
        if (Float.isNaN(f)) {
            return JsonNull.INSTANCE;
        }
        if (Float.isInfinite(f)) {
            return new JsonString(Float.toString(f));
        }
        return new JsonNumber(Double.valueOf(Float.toString(f)));
    }
}
