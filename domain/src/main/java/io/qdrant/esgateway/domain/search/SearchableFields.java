package io.qdrant.esgateway.domain.search;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.IndexName;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.query.Query;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A query as Elasticsearch builds it on one index's mapping where fields are mapped with {@code index: false} or
 * {@code doc_values: false}. Every backend indexes such fields anyway; this rewrite gives the answers ES gives:
 * <ul>
 * <li>a field neither indexed nor with doc values (or a {@code text} field with {@code index: false}) cannot be
 * searched: {@code query_shard_exception} "failed to create query: Cannot search on field [f] since it is not
 * indexed[ nor has doc values]."; an {@code exists} on it matches nothing;
 * <li>a field with doc values only is searched through them: term-level queries on it score a constant (the
 * query's boost), as ES's doc-values queries do.
 * </ul>
 * Mappings without such fields ({@link #applies}) are left alone at no cost.
 */
public final class SearchableFields {
    private final Mappings mappings;
    private final String index;
    private final String uuid;

    private SearchableFields(Mappings mappings, String index, String uuid) {
        this.mappings = mappings;
        this.index = index;
        this.uuid = uuid;
    }

    /** Whether any field of the mapping is mapped with {@code index: false} (then {@link #rewrite} may change). */
    public static boolean applies(Mappings mappings) {
        return anyNotIndexed(mappings.properties());
    }

    private static boolean anyNotIndexed(Map<String, FieldMapping> fields) {
        for (FieldMapping f : fields.values()) {
            if (!f.options().index()) {
                return true;
            }
            boolean inner = switch (f) {
                case FieldMapping.ObjectField o -> anyNotIndexed(o.properties());
                case FieldMapping.TextField t -> anyNotIndexed(t.fields());
                case FieldMapping.KeywordField k -> anyNotIndexed(k.fields());
                default -> false;
            };
            if (inner) {
                return true;
            }
        }
        return false;
    }

    /** The first field mapped with {@code store: true} that one of {@code patterns} names, if any. */
    public static Optional<String> storedField(Mappings mappings, List<String> patterns) {
        Map<String, FieldMapping> leaves = new TreeMap<>();
        leaves(mappings.properties(), "", leaves);
        for (Map.Entry<String, FieldMapping> e : leaves.entrySet()) {
            if (e.getValue().options().store() && patterns.stream().anyMatch(p -> IndexName.matches(p, e.getKey()))) {
                return Optional.of(e.getKey());
            }
        }
        return Optional.empty();
    }

    /** Whether {@code query} holds a {@code function_score}, whose functions are checked against each index's mapping. */
    public static boolean checksFunctions(Query query) {
        return switch (query) {
            case Query.FunctionScore f -> true;
            case Query.Bool b -> b.must().stream().anyMatch(SearchableFields::checksFunctions)
                    || b.filter().stream().anyMatch(SearchableFields::checksFunctions)
                    || b.should().stream().anyMatch(SearchableFields::checksFunctions)
                    || b.mustNot().stream().anyMatch(SearchableFields::checksFunctions);
            case Query.ConstantScore c -> checksFunctions(c.filter());
            case Query.Boosting b -> checksFunctions(b.positive()) || checksFunctions(b.negative());
            case Query.DisMax d -> d.queries().stream().anyMatch(SearchableFields::checksFunctions);
            case Query.ScriptScore s -> checksFunctions(s.query());
            default -> false;
        };
    }

    /** The query as ES runs it on this index; a failure is {@link ErrorKind#QUERY_SHARD} (a shard failure). */
    public static Query rewrite(Query query, Mappings mappings, String index, String uuid) {
        return new SearchableFields(mappings, index, uuid).visit(query);
    }

    private Query visit(Query q) {
        return switch (q) {
            case Query.Term t -> termLevel(t.field(), t, t.boost());
            case Query.Terms t -> termLevel(t.field(), t, t.boost());
            case Query.Range r -> termLevel(r.field(), r, r.boost());
            case Query.Prefix p -> termLevel(p.field(), p, p.boost());
            case Query.Wildcard w -> termLevel(w.field(), w, w.boost());
            case Query.Regexp r -> termLevel(r.field(), r, r.boost());
            case Query.Fuzzy f -> termLevel(f.field(), f, f.boost());
            case Query.Match m -> termLevel(m.field(), m, m.boost());
            case Query.MatchPhrase m -> termLevel(m.field(), m, m.boost());
            case Query.MatchPhrasePrefix m -> termLevel(m.field(), m, m.boost());
            case Query.Exists e -> {
                Optional<FieldMapping> m = leaf(e.field());
                yield m.isPresent() && !searchable(m.get()) ? new Query.MatchNone(e.boost()) : e;
            }
            case Query.MultiMatch m -> {
                m.fields().forEach(f -> checkPattern(f.field(), "multi_match"));
                yield m;
            }
            case Query.QueryString s -> {
                if (s.fields().isEmpty()) {
                    checkPattern("*", s.simple() ? "simple_query_string" : "query_string");
                }
                s.fields().forEach(f -> checkPattern(f.field(), s.simple() ? "simple_query_string" : "query_string"));
                yield s;
            }
            case Query.Bool b -> new Query.Bool(all(b.must()), all(b.filter()), all(b.should()), all(b.mustNot()),
                    b.minimumShouldMatch(), b.boost());
            case Query.ConstantScore c -> new Query.ConstantScore(visit(c.filter()), c.boost());
            case Query.ScriptScore s -> new Query.ScriptScore(visit(s.query()), s.script(), s.source(), s.minScore(),
                    s.boost());
            case Query.FunctionScore f -> {
                for (Query.ScoreFunction fn : f.functions()) {
                    try {
                        io.qdrant.esgateway.domain.script.FunctionScoring.check(fn.fn(), mappings);
                    } catch (GatewayException e) {
                        throw new GatewayException(ErrorKind.QUERY_SHARD, "failed to create query: " + e.getMessage(),
                                Map.of("index_uuid", uuid, "index", index), e);
                    }
                }
                yield new Query.FunctionScore(visit(f.query()), f.functions().stream()
                    .map(fn -> new Query.ScoreFunction(fn.filter().map(this::visit), fn.weight(), fn.fn())).toList(),
                    f.scoreMode(), f.boostMode(), f.maxBoost(), f.minScore(), f.boost());
            }
            case Query.Boosting b -> new Query.Boosting(visit(b.positive()), visit(b.negative()), b.negativeBoost(),
                    b.boost());
            case Query.DisMax d -> new Query.DisMax(all(d.queries()), d.tieBreaker(), d.boost());
            case Query.Knn k -> new Query.Knn(k.field(), k.queryVector(), k.k(), k.numCandidates(), all(k.filter()),
                    k.similarity(), k.boost());
            case Query.MatchAll a -> a;
            case Query.MatchNone n -> n;
            case Query.Ids i -> i;
        };
    }

    private List<Query> all(List<Query> queries) {
        return queries.stream().map(this::visit).toList();
    }

    /** A single-field query: refused on an unsearchable field, constant-scored on a doc-values-only one. */
    private Query termLevel(String field, Query q, float boost) {
        Optional<FieldMapping> m = leaf(field);
        if (m.isEmpty() || m.get().options().index()) {
            return q;
        }
        FieldMapping mapping = m.get();
        if (!searchable(mapping)) {
            throw notSearchable(field, mapping);
        }
        // a doc-values query: the score is the boost whatever the query (ES's IndexOrDocValuesQuery on doc values)
        return new Query.ConstantScore(q, boost);
    }

    /** A field name or pattern of a multi-field query: ES refuses an unsearchable field it names or expands to. */
    private void checkPattern(String pattern, String query) {
        Map<String, FieldMapping> leaves = new TreeMap<>();
        leaves(mappings.properties(), "", leaves);
        for (Map.Entry<String, FieldMapping> e : leaves.entrySet()) {
            if (e.getValue().options().index() || !IndexName.matches(pattern, e.getKey())) {
                continue;
            }
            if (!IndexName.isWildcard(pattern)) {
                if (!searchable(e.getValue())) {
                    throw notSearchable(e.getKey(), e.getValue());
                }
                continue;
            }
            throw GatewayException.unsupported("[" + query + "] over the field pattern [" + pattern
                    + "], which covers the field [" + e.getKey() + "] mapped with [index: false]");
        }
    }

    private static void leaves(Map<String, FieldMapping> fields, String prefix, Map<String, FieldMapping> out) {
        fields.forEach((name, f) -> {
            switch (f) {
                case FieldMapping.ObjectField o -> leaves(o.properties(), prefix + name + ".", out);
                case FieldMapping.TextField t -> {
                    out.put(prefix + name, f);
                    leaves(t.fields(), prefix + name + ".", out);
                }
                case FieldMapping.KeywordField k -> {
                    out.put(prefix + name, f);
                    leaves(k.fields(), prefix + name + ".", out);
                }
                default -> out.put(prefix + name, f);
            }
        });
    }

    private Optional<FieldMapping> leaf(String field) {
        return mappings.field(field).filter(m -> !(m instanceof FieldMapping.ObjectField));
    }

    /** Searchable: indexed, or with doc values (a text field has none). */
    private static boolean searchable(FieldMapping m) {
        return m.options().index() || (m.options().docValues() && !(m instanceof FieldMapping.TextField));
    }

    private GatewayException notSearchable(String field, FieldMapping m) {
        String reason = "Cannot search on field [" + field + "] since it is not indexed"
                + (m instanceof FieldMapping.TextField ? "." : " nor has doc values.");
        return new GatewayException(ErrorKind.QUERY_SHARD, "failed to create query: " + reason,
                Map.of("index_uuid", uuid, "index", index), GatewayException.illegalArgument(reason));
    }
}
