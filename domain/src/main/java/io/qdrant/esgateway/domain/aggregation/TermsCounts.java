package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.index.Mappings;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * A {@code terms} aggregation answered from per-value document counts alone (a backend's facet counts, e.g. Qdrant's
 * {@code facet}), for the shapes where those counts are the whole answer: no sub-aggregations, buckets ordered by
 * {@code _count} and/or {@code _key}, {@code min_doc_count} of at least 1. The counts must be complete — every value
 * of the field among the matches, each counted once per document holding it — so that the partial is the one the
 * collectors would build: {@code include}/{@code exclude} and {@code missing} are applied here exactly as
 * {@link TermsAggregator} applies them while collecting.
 */
public final class TermsCounts {
    private TermsCounts() {
    }

    /** Whether per-value document counts are all this aggregation needs. */
    public static boolean countable(Aggregation.Terms terms) {
        return terms.subs().isEmpty() && terms.minDocCount() >= 1 && terms.order().stream()
                .allMatch(o -> o.key().equals("_count") || o.key().equals("_key"));
    }

    /**
     * The aggregation's partial on one index from complete counts.
     *
     * @param name         the aggregation's name (ES names it in include/exclude errors)
     * @param valueCounts  each value's number of matching documents holding it (keyword values as Strings; integral
     *                     kinds as Longs; floating kinds as Doubles)
     * @param withoutValue the number of matching documents without any value (used only with {@code missing})
     * @throws IllegalArgumentException when the aggregation is not {@link #countable}
     */
    public static Partial partial(String index, String name, Aggregation.Terms terms, Mappings mappings,
                                  Map<Object, Long> valueCounts, long withoutValue, LongSupplier now) {
        if (!countable(terms)) {
            throw new IllegalArgumentException("terms aggregation [" + name + "] needs more than value counts");
        }
        FieldRef field = TermsAggregator.formatted(FieldRef.of(index, terms.field(), mappings), terms.format(),
                terms.executionHint());
        Predicate<Object> accept = terms.includeExclude().filter(name, field, now);
        Map<Object, TermsAggregator.BucketPartial> buckets = new HashMap<>();
        valueCounts.forEach((key, count) -> {
            if (count > 0 && accept.test(key)) {
                buckets.merge(key, new TermsAggregator.BucketPartial(count, NamedPartials.EMPTY),
                        TermsAggregator.BucketPartial::merge);
            }
        });
        if (withoutValue > 0 && terms.missing().isPresent()) {
            Object key = Keys.missingKey(terms.missing().get(), field, now);
            if (accept.test(key)) {
                buckets.merge(key, new TermsAggregator.BucketPartial(withoutValue, NamedPartials.EMPTY),
                        TermsAggregator.BucketPartial::merge);
            }
        }
        return new TermsAggregator.TermsPartial(terms, field, buckets, () -> new NamedCollectors(Map.of()));
    }
}
