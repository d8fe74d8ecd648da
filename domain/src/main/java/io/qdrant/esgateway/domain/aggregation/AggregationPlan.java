package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.query.Query;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The aggregations of a request made ready for one index: each field resolved against the index's mapping (a text
 * field fails here, as a failure of that index), the fields and filter queries a backend must provide per document
 * ({@link #fields()}, {@link #filters()}), and fresh collectors for each partition the backend reads.
 *
 * <p>Some aggregations read every document of the index, not the query's matches: {@code global} (top level only)
 * and the key universe of {@code terms} with {@code min_doc_count: 0}. They form a second plan,
 * {@link #allDocuments()}, which the caller runs over all documents (a match-all request through the same backend
 * call) and hands to {@link #complete} with this plan's partials.
 */
public final class AggregationPlan {
    private static final String UNIVERSE_PREFIX = "[keys]";

    private final Map<String, Aggregation> aggregations;
    private final String index;
    private final Mappings mappings;
    private final LongSupplier now;
    private final Map<String, FieldRef> fields = new LinkedHashMap<>();
    /** The aggregations' scripts by their reserved field names ({@link ScriptedField}). */
    private final Map<String, ScriptedField.Bound> scripts = new LinkedHashMap<>();
    /** Reads a stored script's source by id. */
    private final java.util.function.Function<String, String> stored;
    private final List<Query> filters = new ArrayList<>();
    /** The min_doc_count 0 terms met while planning, with how their keys are read. */
    private final Map<Aggregation.Terms, Supplier<Collector>> universes = new IdentityHashMap<>();
    private final Supplier<NamedCollectors> root;
    private boolean needsScores;
    /** Whether a collector reads the documents' {@code _source} ({@code scripted_metric}). */
    private boolean readsSource;
    private final AggregationPlan allDocuments;
    /** In the all-documents plan: the terms whose key universes it collects, as {@code [keys]<i>}. */
    private final List<Aggregation.Terms> universeOrder;

    private AggregationPlan(String index, Map<String, Aggregation> aggregations, Mappings mappings, LongSupplier now,
                            java.util.function.Function<String, String> stored) {
        this.stored = stored;
        this.index = index;
        this.aggregations = aggregations;
        this.mappings = mappings;
        this.now = now;
        Map<String, Aggregation> matched = new LinkedHashMap<>();
        Map<String, Aggregation> global = new LinkedHashMap<>();
        aggregations.forEach((name, agg) -> (agg instanceof Aggregation.Global ? global : matched).put(name, agg));
        this.root = level(null, matched);
        AggregationPlan all = null;
        if (!global.isEmpty() || !universes.isEmpty()) {
            all = new AggregationPlan(index, global, mappings, now, universes, stored);
        }
        this.allDocuments = all;
        this.universeOrder = List.of();
    }

    /** The plan over all documents: {@code global} aggregations and the key universes of both plans. */
    private AggregationPlan(String index, Map<String, Aggregation> global, Mappings mappings, LongSupplier now,
                            Map<Aggregation.Terms, Supplier<Collector>> outer,
                            java.util.function.Function<String, String> stored) {
        this.stored = stored;
        this.index = index;
        this.aggregations = global;
        this.mappings = mappings;
        this.now = now;
        Supplier<NamedCollectors> globals = level(null, global);
        this.universes.putAll(outer);
        // the key collectors were built with the outer plan's fields: this plan must read them too
        List<Aggregation.Terms> terms = new ArrayList<>(universes.keySet());
        for (Aggregation.Terms t : terms) {
            FieldRef f = FieldRef.of(index, t.field(), mappings);
            if (f.kind() != FieldRef.ValueKind.UNMAPPED) {
                fields.putIfAbsent(f.name(), f);
            }
        }
        Map<Aggregation.Terms, Supplier<Collector>> keyCollectors = new IdentityHashMap<>(universes);
        this.root = () -> {
            NamedCollectors g = globals.get();
            Map<String, Collector> all = new LinkedHashMap<>(g.asMap());
            int i = 0;
            for (Aggregation.Terms t : terms) {
                all.put(UNIVERSE_PREFIX + i++, keyCollectors.get(t).get());
            }
            return new NamedCollectors(all);
        };
        this.universeOrder = List.copyOf(terms);
        this.allDocuments = null;
    }

    /**
     * @param now the request's current time in epoch millis (date math such as {@code now-1d} in ranges, bounds,
     *            {@code missing} and {@code after} values), read at most once by the caller's clock
     */
    public static AggregationPlan of(String index, Map<String, Aggregation> aggregations, Mappings mappings,
                                     LongSupplier now) {
        return of(index, aggregations, mappings, now, id -> {
            throw GatewayException.unsupported("a stored script ([id]) in an aggregation on this path");
        });
    }

    /** {@link #of(String, Map, Mappings, LongSupplier)}; {@code stored} reads a stored script's source by id. */
    public static AggregationPlan of(String index, Map<String, Aggregation> aggregations, Mappings mappings,
                                     LongSupplier now, java.util.function.Function<String, String> stored) {
        return new AggregationPlan(index, aggregations, mappings, now, stored);
    }

    /**
     * Whether an aggregation runs a script ({@link ScriptedField}): the plan then reads each document's whole
     * {@code _source} and its score, and its documents are {@link #scripted} ones.
     */
    public boolean runsScripts() {
        return !scripts.isEmpty() || readsSource || allDocuments != null && allDocuments.runsScripts();
    }

    /** {@code doc} (whose {@code _source} is {@code source}) with the values of the plan's scripts. */
    public AggregationDoc scripted(AggregationDoc doc, io.qdrant.esgateway.domain.json.JsonValue.JsonObject source) {
        if (!runsScripts()) {
            return doc;
        }
        Map<String, ScriptedField.Bound> all = new LinkedHashMap<>(scripts);
        if (allDocuments != null) {
            all.putAll(allDocuments.scripts);
        }
        return new ScriptedDoc(doc, source, all);
    }

    /** The request's current time this plan reads date math against. */
    public LongSupplier now() {
        return now;
    }

    public Map<String, Aggregation> aggregations() {
        return aggregations;
    }

    /** The fields whose values the collectors read, with how they read them. */
    public Collection<FieldRef> fields() {
        return Collections.unmodifiableCollection(fields.values());
    }

    /** The queries {@link AggregationDoc#matches} tests, by number. */
    public List<Query> filters() {
        return Collections.unmodifiableList(filters);
    }

    /** Whether collectors read {@link AggregationDoc#score}. */
    public boolean needsScores() {
        return needsScores;
    }

    /** Whether this plan collects anything over the query's matches (false when every aggregation is global). */
    public boolean collectsMatches() {
        return aggregations.values().stream().anyMatch(a -> !(a instanceof Aggregation.Global));
    }

    /** Fresh collectors for the top level, for one partition of the matching documents. */
    public NamedCollectors newCollectors() {
        return root.get();
    }

    /**
     * The plan to run over every document of the index (ignoring the query, {@code min_score}, kNN and
     * {@code post_filter}), when the request needs one.
     */
    public Optional<AggregationPlan> allDocuments() {
        return Optional.ofNullable(allDocuments);
    }

    /**
     * This index's answer: the partials of this plan (over the query's matches) and of {@link #allDocuments()}
     * (over all documents; {@link NamedPartials#EMPTY} when there is none), in request order, with the zero-count
     * buckets of {@code min_doc_count: 0}.
     */
    public NamedPartials complete(NamedPartials matched, NamedPartials all) {
        Map<Aggregation.Terms, Set<Object>> keys = new IdentityHashMap<>();
        if (allDocuments != null) {
            List<Aggregation.Terms> order = allDocuments.universeOrder;
            for (int i = 0; i < order.size(); i++) {
                Partial p = all.byName().get(UNIVERSE_PREFIX + i);
                keys.put(order.get(i), p == null ? Set.of() : ((TermsAggregator.KeySet) p).keys());
            }
        }
        KeyUniverse universe = t -> keys.getOrDefault(t, Set.of());
        Map<String, Partial> out = new LinkedHashMap<>();
        for (String name : aggregations.keySet()) {
            Partial p = aggregations.get(name) instanceof Aggregation.Global ? all.byName().get(name)
                    : matched.byName().get(name);
            if (p != null) {
                out.put(name, p.complete(universe));
            }
        }
        return new NamedPartials(out);
    }

    private Supplier<NamedCollectors> level(String parent, Map<String, Aggregation> level) {
        Map<String, Supplier<Collector>> factories = new LinkedHashMap<>();
        level.forEach((name, agg) -> factories.put(name, factory(parent, name, agg)));
        return () -> {
            Map<String, Collector> collectors = new LinkedHashMap<>();
            factories.forEach((name, f) -> collectors.put(name, f.get()));
            return new NamedCollectors(collectors);
        };
    }

    private Supplier<Collector> factory(String parent, String name, Aggregation agg) {
        return switch (agg) {
            case Aggregation.Terms t -> {
                FieldRef field = TermsAggregator.formatted(field(t.field()), t.format(), t.executionHint());
                Predicate<Object> accept = t.includeExclude().filter(name, field, now);
                TermsOrderPaths.validate(index, mappings, t);
                Supplier<NamedCollectors> subs = level(name, t.subs());
                if (t.minDocCount() == 0) {
                    universes.putIfAbsent(t, () -> TermsAggregator.keyCollector(t, field, accept, now));
                }
                yield () -> TermsAggregator.collector(t, field, accept, subs, now);
            }
            case Aggregation.Metric m -> {
                FieldRef field = field(m.field());
                MetricAggregator.collector(m, field, now); // fails here (for this index) when the field cannot be used
                yield () -> MetricAggregator.collector(m, field, now);
            }
            case Aggregation.Stats s -> {
                FieldRef field = field(s.field());
                StatsAggregator.collector(s, field, now); // fails here (for this index) when the field cannot be used
                yield () -> StatsAggregator.collector(s, field, now);
            }
            case Aggregation.Cardinality c -> {
                FieldRef field = field(c.field());
                CardinalityAggregator.collector(c, field, now);
                yield () -> CardinalityAggregator.collector(c, field, now);
            }
            case Aggregation.Percentiles p -> {
                FieldRef field = field(p.field());
                PercentilesAggregator.collector(p, field, now);
                yield () -> PercentilesAggregator.collector(p, field, now);
            }
            case Aggregation.ScriptedMetric s -> {
                ScriptedMetricAggregator.Bound bound = ScriptedMetricAggregator.bind(name, s, index, mappings, stored);
                needsScores = true;
                readsSource = true;
                yield () -> ScriptedMetricAggregator.collector(bound);
            }
            case Aggregation.TopHits t -> {
                List<TopHitsAggregator.Key> keys = TopHitsAggregator.keys(t, index, this::field, now);
                needsScores |= TopHitsAggregator.needsScores(t);
                yield () -> TopHitsAggregator.collector(t, index, keys);
            }
            case RangeAggregation r -> {
                FieldRef field = field(r.field());
                RangeAggregator.Setup setup = RangeAggregator.setup(r, field, now);
                Supplier<NamedCollectors> subs = level(name, r.subs());
                yield () -> RangeAggregator.collector(r, field, setup, subs);
            }
            case HistogramAggregation h -> {
                FieldRef field = field(h.field());
                HistogramAggregator.validate(h, field);
                Supplier<NamedCollectors> subs = level(name, h.subs());
                yield () -> HistogramAggregator.histogram(h, field, subs);
            }
            case DateHistogramAggregation d -> {
                FieldRef field = field(d.field());
                HistogramAggregator.DateSetup setup = HistogramAggregator.dateSetup(d, field, now);
                Supplier<NamedCollectors> subs = level(name, d.subs());
                yield () -> HistogramAggregator.dateHistogram(d, field, setup, subs);
            }
            case CompositeAggregation c -> {
                List<CompositeAggregator.Resolved> sources = new ArrayList<>();
                for (CompositeAggregation.Source s : c.sources()) {
                    FieldRef field = field(s.field());
                    CompositeAggregator.validate(s, field);
                    sources.add(new CompositeAggregator.Resolved(s, field));
                }
                List<Object> after = CompositeAggregator.after(c, sources, now);
                Supplier<NamedCollectors> subs = level(name, c.subs());
                yield () -> CompositeAggregator.collector(c, sources, after, subs);
            }
            case Aggregation.Filter f -> {
                int number = filters.size();
                filters.add(f.query());
                Supplier<NamedCollectors> subs = level(name, f.subs());
                yield () -> BucketAggregators.single("filter", doc -> doc.matches(number), subs);
            }
            case Aggregation.Filters f -> {
                int first = filters.size();
                filters.addAll(f.queries());
                Supplier<NamedCollectors> subs = level(name, f.subs());
                yield () -> BucketAggregators.filters(f, first, subs);
            }
            case Aggregation.Missing m -> {
                FieldRef field = field(m.field());
                Supplier<NamedCollectors> subs = level(name, m.subs());
                yield () -> BucketAggregators.single("missing", doc -> BucketAggregators.hasNoValue(doc, field), subs);
            }
            case Aggregation.Global g -> {
                if (parent != null) {
                    throw GatewayException.illegalArgument("Aggregation [" + parent + "] cannot have a global"
                            + " sub-aggregation [" + name + "]. Global aggregations can only be defined as top level"
                            + " aggregations");
                }
                Supplier<NamedCollectors> subs = level(name, g.subs());
                yield () -> BucketAggregators.single("global", doc -> true, subs);
            }
        };
    }

    private FieldRef field(String name) {
        if (ScriptedField.is(name)) {
            ScriptedField.Bound bound = scripts.computeIfAbsent(name, n -> ScriptedField.bind(n, index, mappings,
                    stored));
            needsScores = true;
            return bound.ref();
        }
        FieldRef ref = FieldRef.of(index, name, mappings);
        if (ref.kind() != FieldRef.ValueKind.UNMAPPED) {
            fields.putIfAbsent(name, ref);
        }
        return ref;
    }
}
