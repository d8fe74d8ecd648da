package io.qdrant.esgateway.domain.search;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.query.Query;
import java.util.Map;
import java.util.Optional;

/**
 * The query-time analyzers a query names ({@code analyzer} of {@code match}, {@code match_phrase},
 * {@code match_phrase_prefix}, {@code multi_match}, {@code query_string} and {@code simple_query_string},
 * {@code quote_analyzer} of {@code query_string}), checked against one index as Elasticsearch checks them when it
 * builds the query on a shard: one the index neither defines nor has built in is a {@code query_shard_exception}
 * "[match] analyzer [x] not found" naming the index (a shard failure).
 */
public final class QueryAnalyzers {
    private QueryAnalyzers() {
    }

    /** Throws Elasticsearch's shard failure for the first analyzer {@code query} names that {@code index} lacks. */
    public static void check(Query query, IndexMetadata index) {
        switch (query) {
            case Query.Match m -> require("match", "analyzer", m.analyzer(), index);
            case Query.MatchPhrase m -> require("match_phrase", "analyzer", m.analyzer(), index);
            case Query.MatchPhrasePrefix m -> require("match_phrase_prefix", "analyzer", m.analyzer(), index);
            case Query.MultiMatch m -> require("multi_match", "analyzer", m.analyzer(), index);
            case Query.QueryString s -> {
                String name = s.simple() ? "simple_query_string" : "query_string";
                require(name, "analyzer", s.analyzer(), index);
                require(name, "quote_analyzer", s.quoteAnalyzer(), index);
            }
            case Query.Bool b -> {
                b.must().forEach(q -> check(q, index));
                b.filter().forEach(q -> check(q, index));
                b.should().forEach(q -> check(q, index));
                b.mustNot().forEach(q -> check(q, index));
            }
            case Query.ConstantScore c -> check(c.filter(), index);
            case Query.Boosting b -> {
                check(b.positive(), index);
                check(b.negative(), index);
            }
            case Query.DisMax d -> d.queries().forEach(q -> check(q, index));
            case Query.ScriptScore s -> check(s.query(), index);
            case Query.FunctionScore f -> {
                check(f.query(), index);
                f.functions().forEach(fn -> fn.filter().ifPresent(q -> check(q, index)));
            }
            default -> {
            }
        }
    }

    private static void require(String query, String parameter, Optional<String> analyzer, IndexMetadata index) {
        if (analyzer.isPresent() && !index.settings().analysis().hasAnalyzer(analyzer.get())) {
            throw new GatewayException(ErrorKind.QUERY_SHARD, "[" + query + "] " + parameter + " [" + analyzer.get()
                    + "] not found", Map.of("index_uuid", index.uuid(), "index", index.name()), null);
        }
    }
}
