package io.qdrant.esgateway.domain.plan;

import io.qdrant.esgateway.domain.aggregation.FieldRef.ValueKind;
import java.util.EnumSet;
import java.util.Set;

/**
 * What a backend can compute natively with Elasticsearch's exact semantics, as it declares it. The coverage rules
 * ({@link CoverageRules}) choose the native path for a part of an answer only when every input that part needs is
 * covered here; everything else is computed by the gateway over a complete scan.
 *
 * @param orderable field kinds the backend sorts by natively (min/max of a multi-valued field, missing values placed
 *                  first or last or substituted, as ES does)
 * @param reducible field kinds it sorts by the {@code sum}/{@code avg}/{@code median} of a document's values
 * @param keywordMissingValue whether it sorts keyword fields with a {@code missing} value other than
 *                            {@code _first}/{@code _last} (documents without a value sort as if they had it)
 * @param facetable field kinds the backend aggregates natively (the domain's collectors fed from its columnar data)
 * @param exactCount whether it counts all matches exactly ({@code track_total_hits})
 * @param multiValuedOrderRepeats whether ordering by a multi-valued field returns a document once per value (Qdrant's
 *                                {@code order_by} does): native ordering is then unsafe for fields that may hold
 *                                several values
 * @param missingValuesReturned whether ordering by a field also returns the documents without a value (Qdrant's
 *                              {@code order_by} does not)
 * @param indexOrderTies whether documents with equal sort values come in index order, as in Elasticsearch
 * @param termsCounted field kinds whose top-level {@code terms} aggregation the backend answers natively when the
 *                     answer needs only each value's document count (the shapes
 *                     {@link io.qdrant.esgateway.domain.aggregation.TermsCounts#countable} accepts: no
 *                     sub-aggregations, ordered by {@code _count}/{@code _key}, {@code min_doc_count} ≥ 1) — Qdrant's
 *                     {@code facet}; a kind in {@code facetable} needs no entry here
 * @param firstKeyOrderOnly whether the backend orders natively by the first sort key only, by the value a document
 *                          reaches first in the sort's direction (the min ascending, the max descending — ES's default
 *                          modes), the further keys being applied by the adapter over the first key's tie groups
 *                          (Qdrant's {@code order_by}): the first key must then be a field sort of an orderable kind
 *                          in its default mode; the further keys need nothing
 */
public record BackendCapabilities(Set<ValueKind> orderable, Set<ValueKind> reducible, boolean keywordMissingValue,
                                  Set<ValueKind> facetable, boolean exactCount, boolean multiValuedOrderRepeats, boolean missingValuesReturned,
                                  boolean indexOrderTies, Set<ValueKind> termsCounted, boolean firstKeyOrderOnly) {
    private static final Set<ValueKind> ALL_KINDS = EnumSet.complementOf(EnumSet.of(ValueKind.UNMAPPED));

    public BackendCapabilities {
        orderable = Set.copyOf(orderable);
        reducible = Set.copyOf(reducible);
        facetable = Set.copyOf(facetable);
        termsCounted = Set.copyOf(termsCounted);
    }

    /** A backend without a counts-only {@code terms} path, whose native order honours every min/max mode. */
    public BackendCapabilities(Set<ValueKind> orderable, Set<ValueKind> reducible, boolean keywordMissingValue,
                               Set<ValueKind> facetable, boolean exactCount, boolean multiValuedOrderRepeats,
                               boolean missingValuesReturned, boolean indexOrderTies) {
        this(orderable, reducible, keywordMissingValue, facetable, exactCount, multiValuedOrderRepeats,
                missingValuesReturned, indexOrderTies, Set.of(), false);
    }

    /** Everything native (a reference for tests; real backends declare what they have). */
    public static BackendCapabilities everything() {
        return new BackendCapabilities(ALL_KINDS, ALL_KINDS, true, ALL_KINDS, true, false, true, true);
    }

    /** The names {@link #without} understands. */
    public static final Set<String> SWITCHES = Set.of("order", "facet", "count", "all");

    /**
     * These capabilities declared absent (the configuration switch that forces the complete-scan path): {@code order}
     * (no native field sort), {@code facet} (no native aggregation, counts-only {@code terms} included), {@code count} (no exact native count),
     * {@code all}.
     */
    public BackendCapabilities without(Set<String> absent) {
        for (String s : absent) {
            if (!SWITCHES.contains(s)) {
                throw new IllegalArgumentException("unknown native capability [" + s + "], expected one of "
                        + new java.util.TreeSet<>(SWITCHES));
            }
        }
        boolean all = absent.contains("all");
        boolean order = all || absent.contains("order");
        boolean facet = all || absent.contains("facet");
        boolean count = all || absent.contains("count");
        return new BackendCapabilities(order ? Set.of() : orderable, order ? Set.of() : reducible,
                keywordMissingValue && !order, facet ? Set.of() : facetable, exactCount && !count, multiValuedOrderRepeats, missingValuesReturned,
                indexOrderTies, facet ? Set.of() : termsCounted, firstKeyOrderOnly);
    }
}
