package io.qdrant.esgateway.domain.search;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.AliasMetadata;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.IndexName;
import io.qdrant.esgateway.domain.query.MinimumShouldMatch;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.query.dsl.QueryDsl;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The filters of filtered aliases, applied to a read as Elasticsearch applies them. An index named by the expression
 * itself (its name, or a wildcard matching its name, or {@code _all}) is read whole; an index reached only through
 * aliases is limited to the matches of their filters (any of them: a {@code bool} {@code should}), and read whole
 * when one of those aliases has no filter. The filter restricts the query as a {@code filter} clause: it never
 * changes scores.
 */
public final class AliasFilters {
    private AliasFilters() {
    }

    /**
     * Checks that an alias's filter is a query the gateway can run, as ES checks it when the alias is made: ES's
     * {@code 400 illegal_argument_exception} "failed to parse filter for alias [x]" caused by the query's error,
     * whose position is in the filter's compact JSON text (ES parses the filter it stored, not the request).
     */
    public static void validate(AliasMetadata alias) {
        alias.filter().ifPresent(f -> {
            try {
                QueryDsl.parse(io.qdrant.esgateway.domain.json.CompactPositions.of(f));
            } catch (GatewayException e) {
                throw new GatewayException(ErrorKind.ILLEGAL_ARGUMENT,
                        "failed to parse filter for alias [" + alias.alias() + "]", Map.of(), e);
            }
        });
    }

    /** The filter each index of {@code expression} is read with, by index name; indices read whole are absent. */
    public static Map<String, Query> of(CatalogView view, String expression) {
        if (view.aliases().stream().noneMatch(a -> a.filter().isPresent())
                || expression == null || expression.isEmpty() || expression.equals("_all")) {
            return Map.of();
        }
        Set<String> direct = new LinkedHashSet<>();
        Set<String> aliases = new LinkedHashSet<>();
        boolean sawWildcard = false;
        for (String part : expression.split(",")) {
            if (part.isEmpty()) {
                continue;
            }
            if (part.startsWith("-") && sawWildcard) {
                String pattern = part.substring(1);
                direct.removeIf(n -> IndexName.matches(pattern, n));
                aliases.removeIf(n -> IndexName.matches(pattern, n));
            } else if (part.equals("_all")) {
                return Map.of();
            } else if (IndexName.isWildcard(part)) {
                sawWildcard = true;
                view.indices().keySet().stream().filter(n -> IndexName.matches(part, n)).forEach(direct::add);
                view.aliases().stream().map(AliasMetadata::alias).filter(n -> IndexName.matches(part, n)).forEach(aliases::add);
            } else if (view.indices().containsKey(part)) {
                direct.add(part);
            } else {
                aliases.add(part);
            }
        }
        Map<String, List<AliasMetadata>> through = new HashMap<>();
        for (AliasMetadata a : view.aliases()) {
            if (aliases.contains(a.alias()) && !direct.contains(a.index())) {
                through.computeIfAbsent(a.index(), k -> new ArrayList<>()).add(a);
            }
        }
        Map<String, Query> out = new HashMap<>();
        through.forEach((index, list) -> {
            if (list.stream().allMatch(a -> a.filter().isPresent())) {
                List<Query> filters = list.stream().map(a -> QueryDsl.parse(a.filter().get())).toList();
                out.put(index, filters.size() == 1 ? filters.get(0) : new Query.Bool(List.of(), List.of(), filters,
                        List.of(), MinimumShouldMatch.UNSPECIFIED, 1f));
            }
        });
        return out;
    }

    /** {@code query} (absent: match everything) limited to the matches of {@code filter}, with its own scores. */
    public static Optional<Query> restrict(Optional<Query> query, Query filter) {
        return Optional.of(new Query.Bool(List.of(query.orElse(new Query.MatchAll(1f))), List.of(filter), List.of(),
                List.of(), MinimumShouldMatch.UNSPECIFIED, 1f));
    }

    /**
     * {@code request} limited to {@code filter}: its query (unless it has only kNN sections) and each kNN section (as
     * one more of its filters).
     */
    public static SearchRequest restrict(SearchRequest request, Query filter) {
        if (request.rrf().isPresent()) {
            throw GatewayException.unsupported("[rrf] through a filtered alias");
        }
        SearchRequest out = request;
        if (request.query().isPresent() || request.knn().isEmpty()) {
            out = out.withQueries(restrict(request.query(), filter), request.postFilter());
        }
        if (!request.knn().isEmpty()) {
            out = out.withKnn(request.knn().stream().map(k -> {
                List<Query> filters = new ArrayList<>(k.filter());
                filters.add(filter);
                return new Query.Knn(k.field(), k.queryVector(), k.k(), k.numCandidates(), filters, k.similarity(),
                        k.boost());
            }).toList());
        }
        return out;
    }
}
