package io.qdrant.esgateway.domain.plan;

import io.qdrant.esgateway.domain.aggregation.Aggregation;
import io.qdrant.esgateway.domain.aggregation.CompositeAggregation;
import io.qdrant.esgateway.domain.aggregation.DateHistogramAggregation;
import io.qdrant.esgateway.domain.aggregation.FieldRef;
import io.qdrant.esgateway.domain.aggregation.FieldRef.ValueKind;
import io.qdrant.esgateway.domain.aggregation.HistogramAggregation;
import io.qdrant.esgateway.domain.aggregation.RangeAggregation;
import io.qdrant.esgateway.domain.aggregation.TermsCounts;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.TrackTotalHits;
import io.qdrant.esgateway.domain.sort.SortSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides, per part of a search on one index, whether the backend's native answer is provably Elasticsearch's answer
 * — and otherwise sends that part down the complete-scan path, with the reason. Decided by exclusion: a part is native
 * only when every input it depends on is declared safe by {@link BackendCapabilities}; anything not recognised scans.
 *
 * <p>Matching itself (which documents a query selects, their scores) is always the backend's: both paths ask it for
 * the matches. What the rules guard is what is computed <em>from</em> the matches: order and window, count,
 * aggregations.
 *
 * <p><b>Duty:</b> the rules switch over the sealed {@link SortSpec}, {@link TrackTotalHits} and {@link Aggregation}
 * types without a {@code default}; a new sort, total mode or aggregation type fails compilation here until its rule is
 * written (native only if its inputs are covered).
 */
public final class CoverageRules {
    private CoverageRules() {
    }

    public static ExecutionPlan decide(String index, SearchRequest request, Mappings mappings,
                                       BackendCapabilities capabilities) {
        ExecutionPath hits = hits(index, request, mappings, capabilities);
        ExecutionPath total = switch (request.trackTotalHits()) {
            case TrackTotalHits.Disabled d -> ExecutionPath.NATIVE;
            case TrackTotalHits.Exact e -> capabilities.exactCount() ? ExecutionPath.NATIVE
                    : new ExecutionPath.Scan("count", "the backend does not count matches exactly");
            case TrackTotalHits.UpTo u -> capabilities.exactCount() ? ExecutionPath.NATIVE
                    : new ExecutionPath.Scan("count", "the backend does not count matches exactly");
        };
        Map<String, ExecutionPath> aggs = new LinkedHashMap<>();
        request.aggregations().forEach((name, agg) -> aggs.put(name, aggregation(index, agg, mappings,
                capabilities)));
        return new ExecutionPlan(hits, total, aggs);
    }

    private static ExecutionPath hits(String index, SearchRequest request, Mappings mappings,
                                      BackendCapabilities capabilities) {
        if (request.size() == 0 && request.from() == 0) {
            return ExecutionPath.NATIVE;
        }
        if (request.sort().stream().anyMatch(s -> s instanceof SortSpec.Script)) {
            return new ExecutionPath.Scan("script_sort", "a [_script] sort runs in the gateway");
        }
        boolean firstKeyOnly = capabilities.firstKeyOrderOnly() && !request.sort().isEmpty();
        if (firstKeyOnly && !(request.sort().get(0) instanceof SortSpec.Field)
                && request.sort().stream().anyMatch(s -> s instanceof SortSpec.Field)) {
            return new ExecutionPath.Scan("first_key", "the backend orders natively by a first field sort only");
        }
        for (SortSpec spec : firstKeyOnly ? request.sort().subList(0, 1) : request.sort()) {
            Optional<ExecutionPath.Scan> scan = switch (spec) {
                case SortSpec.Score s -> Optional.empty();
                case SortSpec.Doc d -> Optional.empty();
                case SortSpec.Field f -> fieldSort(index, f, mappings, capabilities);
                case SortSpec.Script s -> Optional.of(new ExecutionPath.Scan("script_sort",
                        "a [_script] sort runs in the gateway"));
            };
            if (scan.isPresent()) {
                return scan.get();
            }
        }
        return ExecutionPath.NATIVE;
    }

    private static Optional<ExecutionPath.Scan> fieldSort(String index, SortSpec.Field f, Mappings mappings,
                                                          BackendCapabilities capabilities) {
        Optional<ValueKind> kind = kind(index, f.field(), mappings);
        if (kind.isEmpty()) {
            // the field cannot be sorted on at all: both paths give the same error; the native one reports it
            return Optional.empty();
        }
        if (kind.get() == ValueKind.UNMAPPED) {
            // every document is missing the field: the order is the index order on both paths
            return capabilities.indexOrderTies() ? Optional.empty() : Optional.of(new ExecutionPath.Scan("tie_order",
                    "the backend does not keep index order for equal sort values"));
        }
        if (!capabilities.orderable().contains(kind.get())) {
            return Optional.of(new ExecutionPath.Scan("order_kind", "sorting by [" + f.field() + "] ("
                    + kind.get().name().toLowerCase(java.util.Locale.ROOT) + ") is not native on this backend"));
        }
        SortSpec.Mode mode = f.effectiveMode();
        if (mode != SortSpec.Mode.MIN && mode != SortSpec.Mode.MAX && !capabilities.reducible().contains(kind.get())) {
            return Optional.of(new ExecutionPath.Scan("sort_mode", "sort mode [" + mode.name()
                    .toLowerCase(java.util.Locale.ROOT) + "] is not native on this backend"));
        }
        if (capabilities.firstKeyOrderOnly()
                && mode != (f.order() == SortSpec.Order.ASC ? SortSpec.Mode.MIN : SortSpec.Mode.MAX)) {
            return Optional.of(new ExecutionPath.Scan("sort_mode", "sort mode [" + mode.name()
                    .toLowerCase(java.util.Locale.ROOT) + "] with order [" + f.order().name()
                    .toLowerCase(java.util.Locale.ROOT) + "] is not native on this backend"));
        }
        if (kind.get() == ValueKind.KEYWORD && f.missing() instanceof SortSpec.Missing.Value
                && !capabilities.keywordMissingValue()) {
            return Optional.of(new ExecutionPath.Scan("keyword_missing", "a [missing] value for the keyword sort on ["
                    + f.field() + "] is not native on this backend"));
        }
        if (capabilities.multiValuedOrderRepeats()) {
            return Optional.of(new ExecutionPath.Scan("multi_valued_order", "the backend repeats a document once per"
                    + " value of [" + f.field() + "]"));
        }
        if (!capabilities.missingValuesReturned()) {
            return Optional.of(new ExecutionPath.Scan("missing_values", "the backend leaves out documents without ["
                    + f.field() + "]"));
        }
        if (!capabilities.indexOrderTies()) {
            return Optional.of(new ExecutionPath.Scan("tie_order", "the backend does not keep index order for equal"
                    + " sort values"));
        }
        return Optional.empty();
    }

    private static ExecutionPath aggregation(String index, Aggregation agg, Mappings mappings,
                                             BackendCapabilities capabilities) {
        List<String> fields = new ArrayList<>();
        fieldsOf(agg, fields);
        if (fields.stream().anyMatch(io.qdrant.esgateway.domain.aggregation.ScriptedField::is)
                || scriptedMetric(agg)) {
            return new ExecutionPath.Scan("script", "an aggregation's [script] runs in the gateway");
        }
        if (agg instanceof Aggregation.Terms t && TermsCounts.countable(t)
                && kind(index, t.field(), mappings).filter(capabilities.termsCounted()::contains).isPresent()) {
            return ExecutionPath.NATIVE;
        }
        if (capabilities.facetable().isEmpty()) {
            return capabilities.termsCounted().isEmpty()
                    ? new ExecutionPath.Scan("facet", "the backend computes no aggregation natively")
                    : new ExecutionPath.Scan("facet_shape", "only top-level [terms] counts on "
                    + capabilities.termsCounted().stream().map(k -> k.name().toLowerCase(java.util.Locale.ROOT))
                    .sorted().toList() + " fields (no sub-aggregations, ordered by [_count] or [_key],"
                    + " [min_doc_count] of at least 1) are native on this backend");
        }
        for (String field : fields) {
            Optional<ValueKind> kind = kind(index, field, mappings);
            if (kind.isPresent() && kind.get() != ValueKind.UNMAPPED && !capabilities.facetable().contains(kind.get())) {
                return new ExecutionPath.Scan("facet_kind", "aggregating [" + field + "] ("
                        + kind.get().name().toLowerCase(java.util.Locale.ROOT) + ") is not native on this backend");
            }
        }
        return ExecutionPath.NATIVE;
    }

    private static boolean scriptedMetric(Aggregation agg) {
        return agg instanceof Aggregation.ScriptedMetric
                || agg.subs().values().stream().anyMatch(CoverageRules::scriptedMetric);
    }

    /** Every field an aggregation and its sub-aggregations read. */
    private static void fieldsOf(Aggregation agg, List<String> out) {
        switch (agg) {
            case Aggregation.Terms t -> out.add(t.field());
            case Aggregation.Metric m -> out.add(m.field());
            case Aggregation.Stats s -> out.add(s.field());
            case Aggregation.Cardinality c -> out.add(c.field());
            case Aggregation.Percentiles p -> out.add(p.field());
            // top_hits sorts in the domain from the values of its sort fields, whatever the backend sorts natively
            case Aggregation.TopHits t -> t.sort().forEach(s -> {
                if (s instanceof io.qdrant.esgateway.domain.sort.SortSpec.Field f) {
                    out.add(f.field());
                }
            });
            case Aggregation.Missing m -> out.add(m.field());
            // their queries are matched by the backend on both paths (the rules guard what is computed from matches)
            case Aggregation.Filter f -> { }
            case Aggregation.Filters f -> { }
            case Aggregation.Global g -> { }
            // its scripts run in the gateway (the rules send it to the complete scan)
            case Aggregation.ScriptedMetric s -> { }
            // range, histogram, date_histogram, composite: computed from their fields' values like terms
            case RangeAggregation r -> out.add(r.field());
            case HistogramAggregation h -> out.add(h.field());
            case DateHistogramAggregation d -> out.add(d.field());
            case CompositeAggregation c -> c.sources().forEach(s -> out.add(s.field()));
        }
        agg.subs().values().forEach(sub -> fieldsOf(sub, out));
    }

    /** The field's kind, or empty when it cannot be sorted or aggregated at all (text, vectors, objects). */
    private static Optional<ValueKind> kind(String index, String field, Mappings mappings) {
        try {
            return Optional.of(FieldRef.of(index, field, mappings).kind());
        } catch (GatewayException e) {
            return Optional.empty();
        }
    }
}
