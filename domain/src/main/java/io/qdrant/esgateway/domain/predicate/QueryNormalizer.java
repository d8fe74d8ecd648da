package io.qdrant.esgateway.domain.predicate;

import io.qdrant.esgateway.domain.predicate.Predicate.Always;
import io.qdrant.esgateway.domain.predicate.Predicate.And;
import io.qdrant.esgateway.domain.predicate.Predicate.AtLeast;
import io.qdrant.esgateway.domain.predicate.Predicate.Condition;
import io.qdrant.esgateway.domain.predicate.Predicate.Never;
import io.qdrant.esgateway.domain.predicate.Predicate.Not;
import io.qdrant.esgateway.domain.predicate.Predicate.Or;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.query.QueryStringParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@link Query} → {@link NormalizedQuery}: the boolean structure of Elasticsearch's compound queries made explicit
 * ({@code bool} as {@link Query.Bool#requiredShoulds}: {@code should} is optional when {@code must} or {@code filter}
 * is present unless {@code minimum_should_match} says otherwise, and one {@code should} clause is required otherwise,
 * also when {@code minimum_should_match} computes 0; a pure {@code must_not} bool matches all the rest; {@code dis_max},
 * {@code boosting} and {@code constant_score} match what their parts match), simplified ({@code Always}/{@code Never}
 * absorbed, nested conjunctions and disjunctions flattened), with the original query as the ranking part when it
 * scores.
 *
 * <p>Maintenance: adding a {@link Query} record fails compilation of {@link #predicate} until it is handled here.
 */
public final class QueryNormalizer {
    private QueryNormalizer() {
    }

    public static NormalizedQuery normalize(Optional<Query> query) {
        if (query.isEmpty()) {
            return new NormalizedQuery(new Always(), Optional.empty());
        }
        Query q = query.get();
        return new NormalizedQuery(predicate(q), scores(q) ? Optional.of(q) : Optional.empty());
    }

    /** The documents {@code q} matches. */
    public static Predicate predicate(Query q) {
        return switch (q) {
            case Query.MatchAll m -> new Always();
            case Query.MatchNone m -> new Never();
            case Query.Term t -> new Condition(t.field(), t);
            case Query.Terms t -> t.values().isEmpty() ? new Never() : new Condition(t.field(), t);
            case Query.Range r -> new Condition(r.field(), r);
            case Query.Exists e -> new Condition(e.field(), e);
            case Query.Ids i -> i.ids().isEmpty() ? new Never() : new Condition("_id", i);
            case Query.Prefix p -> new Condition(p.field(), p);
            case Query.Wildcard w -> new Condition(w.field(), w);
            case Query.Regexp r -> new Condition(r.field(), r);
            case Query.Fuzzy f -> new Condition(f.field(), f);
            case Query.Match m -> new Condition(m.field(), m);
            case Query.MatchPhrase m -> new Condition(m.field(), m);
            case Query.MatchPhrasePrefix m -> new Condition(m.field(), m);
            case Query.Knn k -> new Condition(k.field(), k);
            // no fields: the index's default fields, every searchable one
            case Query.MultiMatch m -> m.fields().isEmpty() ? new Condition("*", m)
                    : or(m.fields().stream().map(f -> (Predicate) new Condition(f.field(), m)).toList());
            case Query.QueryString s -> predicate(QueryStringParser.parse(s));
            case Query.ConstantScore c -> predicate(c.filter());
            // min_score keeps what the script scores high enough: no condition on fields describes it
            case Query.ScriptScore s -> s.minScore().isPresent() ? new Condition("_score", s) : predicate(s.query());
            case Query.FunctionScore f -> f.minScore().isPresent() ? new Condition("_score", f) : predicate(f.query());
            case Query.Boosting b -> predicate(b.positive());
            case Query.DisMax d -> or(d.queries().stream().map(QueryNormalizer::predicate).toList());
            case Query.Bool b -> bool(b);
        };
    }

    private static Predicate bool(Query.Bool b) {
        List<Predicate> all = new ArrayList<>();
        b.must().forEach(q -> all.add(predicate(q)));
        b.filter().forEach(q -> all.add(predicate(q)));
        int required = b.requiredShoulds();
        if (required > 0) {
            all.add(atLeast(required, b.should().stream().map(QueryNormalizer::predicate).toList()));
        }
        for (Query q : b.mustNot()) {
            all.add(not(predicate(q)));
        }
        return and(all);
    }

    /** Whether {@code q} produces relevance scores that can differ between matching documents. */
    static boolean scores(Query q) {
        return switch (q) {
            case Query.MatchAll m -> false;
            case Query.MatchNone m -> false;
            case Query.ConstantScore c -> false;
            case Query.ScriptScore s -> true;
            case Query.FunctionScore f -> true;
            case Query.Term t -> true;
            case Query.Terms t -> false;
            case Query.Range r -> false;
            case Query.Exists e -> false;
            case Query.Ids i -> false;
            case Query.Prefix p -> false;
            case Query.Wildcard w -> false;
            case Query.Regexp r -> false;
            case Query.Fuzzy f -> true;
            case Query.Match m -> true;
            case Query.MatchPhrase m -> true;
            case Query.MatchPhrasePrefix m -> true;
            case Query.MultiMatch m -> true;
            case Query.QueryString s -> true;
            case Query.Knn k -> true;
            case Query.Boosting b -> true;
            case Query.DisMax d -> d.queries().stream().anyMatch(QueryNormalizer::scores);
            case Query.Bool b -> b.must().stream().anyMatch(QueryNormalizer::scores)
                    || b.should().stream().anyMatch(QueryNormalizer::scores);
        };
    }

    static Predicate and(List<Predicate> parts) {
        List<Predicate> flat = new ArrayList<>();
        for (Predicate p : parts) {
            switch (p) {
                case Never n -> {
                    return n;
                }
                case Always a -> {
                }
                case And and -> flat.addAll(and.parts());
                default -> flat.add(p);
            }
        }
        return flat.isEmpty() ? new Always() : flat.size() == 1 ? flat.get(0) : new And(flat);
    }

    static Predicate or(List<Predicate> parts) {
        List<Predicate> flat = new ArrayList<>();
        for (Predicate p : parts) {
            switch (p) {
                case Always a -> {
                    return a;
                }
                case Never n -> {
                }
                case Or or -> flat.addAll(or.parts());
                default -> flat.add(p);
            }
        }
        return flat.isEmpty() ? new Never() : flat.size() == 1 ? flat.get(0) : new Or(flat);
    }

    static Predicate not(Predicate p) {
        return switch (p) {
            case Always a -> new Never();
            case Never n -> new Always();
            case Not n -> n.part();
            default -> new Not(p);
        };
    }

    static Predicate atLeast(int count, List<Predicate> parts) {
        List<Predicate> rest = new ArrayList<>();
        int needed = count;
        for (Predicate p : parts) {
            if (p instanceof Always) {
                needed--;
            } else if (!(p instanceof Never)) {
                rest.add(p);
            }
        }
        if (needed <= 0) {
            return new Always();
        }
        if (needed > rest.size()) {
            return new Never();
        }
        if (needed == 1) {
            return or(rest);
        }
        if (needed == rest.size()) {
            return and(rest);
        }
        return new AtLeast(needed, rest);
    }
}
