package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.query.Query;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The aggregations of a request made ready for one index: each field resolved against the index's mapping (a text
 * field fails here, as a failure of that index), the fields and filter queries a backend must provide per document
 * ({@link #fields()}, {@link #filters()}), and fresh collectors for each partition the backend reads.
 */
public final class AggregationPlan {
    private final Map<String, Aggregation> aggregations;
    private final String index;
    private final Mappings mappings;
    private final Map<String, FieldRef> fields = new LinkedHashMap<>();
    private final List<Query> filters = new ArrayList<>();
    private final Supplier<NamedCollectors> root;

    private AggregationPlan(String index, Map<String, Aggregation> aggregations, Mappings mappings) {
        this.index = index;
        this.aggregations = aggregations;
        this.mappings = mappings;
        this.root = level(aggregations);
    }

    public static AggregationPlan of(String index, Map<String, Aggregation> aggregations, Mappings mappings) {
        return new AggregationPlan(index, aggregations, mappings);
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
        return false;
    }

    /** Fresh collectors for the top level, for one partition of the matching documents. */
    public NamedCollectors newCollectors() {
        return root.get();
    }

    private Supplier<NamedCollectors> level(Map<String, Aggregation> level) {
        Map<String, Supplier<Collector>> factories = new LinkedHashMap<>();
        level.forEach((name, agg) -> factories.put(name, factory(agg)));
        return () -> {
            Map<String, Collector> collectors = new LinkedHashMap<>();
            factories.forEach((name, f) -> collectors.put(name, f.get()));
            return new NamedCollectors(collectors);
        };
    }

    private Supplier<Collector> factory(Aggregation agg) {
        return switch (agg) {
            case Aggregation.Terms t -> {
                FieldRef field = field(t.field());
                Supplier<NamedCollectors> subs = level(t.subs());
                yield () -> TermsAggregator.collector(t, field, subs);
            }
            case Aggregation.Metric m -> {
                FieldRef field = field(m.field());
                MetricAggregator.validate(m, field);
                yield () -> MetricAggregator.collector(m, field);
            }
            case RangeAggregation r -> {
                FieldRef field = field(r.field());
                RangeAggregator.Setup setup = RangeAggregator.setup(r, field, System::currentTimeMillis);
                Supplier<NamedCollectors> subs = level(r.subs());
                yield () -> RangeAggregator.collector(r, field, setup, subs);
            }
            case HistogramAggregation h -> {
                FieldRef field = field(h.field());
                HistogramAggregator.validate(h, field);
                Supplier<NamedCollectors> subs = level(h.subs());
                yield () -> HistogramAggregator.histogram(h, field, subs);
            }
            case DateHistogramAggregation d -> {
                FieldRef field = field(d.field());
                HistogramAggregator.DateSetup setup = HistogramAggregator.dateSetup(d, field,
                        System::currentTimeMillis);
                Supplier<NamedCollectors> subs = level(d.subs());
                yield () -> HistogramAggregator.dateHistogram(d, field, setup, subs);
            }
            case CompositeAggregation c -> {
                List<CompositeAggregator.Resolved> sources = new ArrayList<>();
                for (CompositeAggregation.Source s : c.sources()) {
                    FieldRef field = field(s.field());
                    CompositeAggregator.validate(s, field);
                    sources.add(new CompositeAggregator.Resolved(s, field));
                }
                List<Object> after = CompositeAggregator.after(c, sources);
                Supplier<NamedCollectors> subs = level(c.subs());
                yield () -> CompositeAggregator.collector(c, sources, after, subs);
            }
        };
    }

    private FieldRef field(String name) {
        FieldRef ref = FieldRef.of(index, name, mappings);
        if (ref.kind() != FieldRef.ValueKind.UNMAPPED) {
            fields.putIfAbsent(name, ref);
        }
        return ref;
    }
}
