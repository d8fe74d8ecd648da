package io.qdrant.esgateway.domain.predicate;

import io.qdrant.esgateway.domain.query.Query;
import java.util.List;

/**
 * Which documents match, as pure boolean logic: the part of a query that any backend must reproduce exactly, with
 * relevance kept apart (see {@link NormalizedQuery}). Leaves are single-field conditions with Elasticsearch's
 * semantics for multi-valued and missing fields written down on each; the connectives are plain logic.
 *
 * <p>Translations (Qdrant filters, the coverage rules) switch over this sealed set without a {@code default}.
 */
public sealed interface Predicate {

    /** Every document. */
    record Always() implements Predicate {
    }

    /** No document. */
    record Never() implements Predicate {
    }

    /** All of the parts (never empty: an empty conjunction is {@link Always}). */
    record And(List<Predicate> parts) implements Predicate {
        public And {
            parts = List.copyOf(parts);
        }
    }

    /** Any of the parts (never empty: an empty disjunction is {@link Never}). */
    record Or(List<Predicate> parts) implements Predicate {
        public Or {
            parts = List.copyOf(parts);
        }
    }

    /**
     * The documents the part does not match — including documents where the part's field is missing: ES's
     * {@code must_not: {term: {f: x}}} matches documents without {@code f}.
     */
    record Not(Predicate part) implements Predicate {
    }

    /** At least {@code count} of the parts (1 ≤ count ≤ parts; ES's {@code minimum_should_match}). */
    record AtLeast(int count, List<Predicate> parts) implements Predicate {
        public AtLeast {
            parts = List.copyOf(parts);
        }
    }

    /**
     * A condition on one field, kept as its query node ({@code term}, {@code terms}, {@code range}, {@code exists},
     * {@code ids}, {@code prefix}, {@code wildcard}, {@code regexp}, {@code fuzzy}, full-text matches and phrases,
     * {@code knn}). Semantics, as Elasticsearch's:
     * <ul>
     *   <li>a field with several values (a JSON array) matches when <em>any</em> value matches;</li>
     *   <li>a missing field, {@code null}, {@code []} and {@code [null]} have no values: no value condition matches
     *       them, and {@code exists} is false for them;</li>
     *   <li>values are compared as the field's mapped type (a term {@code "5"} on a long is 5; on a keyword it is
     *       the string); an unmapped field matches nothing;</li>
     *   <li>full-text conditions match on the field's analysed terms ({@code match}: per its operator and
     *       {@code minimum_should_match}); {@code knn} matches the {@code k} nearest documents that pass its
     *       filter.</li>
     * </ul>
     */
    record Condition(String field, Query leaf) implements Predicate {
    }
}
