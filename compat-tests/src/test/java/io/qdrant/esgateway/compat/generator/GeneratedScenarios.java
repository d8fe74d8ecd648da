package io.qdrant.esgateway.compat.generator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.compat.harness.Engine;
import io.qdrant.esgateway.compat.harness.Json;
import io.qdrant.esgateway.compat.harness.RequestSpec;
import io.qdrant.esgateway.compat.harness.Scenario;
import io.qdrant.esgateway.compat.harness.ScenarioLoader;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A scenario from a seed: create the corpus's index (compared today), {@code _bulk} its documents and run the
 * generated searches (these need the {@code documents} and {@code search} capabilities: until the gateway has them
 * they run against the oracle only, which proves the generated requests are valid Elasticsearch).
 */
public final class GeneratedScenarios {
    private GeneratedScenarios() {
    }

    public static Scenario scenario(String id, long seed, int documents, int queries) {
        CorpusGenerator.Corpus corpus = CorpusGenerator.generate(seed, documents);
        String index = "/" + corpus.index();
        ObjectNode create = CorpusGenerator.F.objectNode();
        create.putObject("settings").put("number_of_shards", 1).put("number_of_replicas", 0);
        create.set("mappings", corpus.mappings());

        StringBuilder bulk = new StringBuilder();
        corpus.bulkLines().forEach(l -> bulk.append(Json.compact(l)).append('\n'));
        List<Scenario.Step> setup = List.of(
                new Scenario.Step(RequestSpec.json("PUT", index, Json.compact(create)), Set.of()),
                new Scenario.Step(new RequestSpec("POST", index + "/_bulk?refresh=true", bulk.toString(),
                        "application/x-ndjson", Map.of()), Set.of("documents")));

        Set<Engine> all = EnumSet.allOf(Engine.class);
        List<Scenario.Case> cases = new ArrayList<>();
        cases.add(new Scenario.Case("mapping of the generated index", RequestSpec.of("GET", index + "/_mapping"),
                ScenarioLoader.DEFAULT_HEADERS, List.of(), all, Set.of()));
        cases.add(new Scenario.Case("count of the generated corpus", RequestSpec.of("GET", index + "/_count"),
                ScenarioLoader.DEFAULT_HEADERS, List.of(), all, Set.of("documents", "search")));
        for (QueryGenerator.GeneratedQuery q : QueryGenerator.generate(seed, corpus, queries)) {
            Set<String> needs = q.features().contains(QueryGenerator.Feature.TERMS_AGG)
                    || q.features().contains(QueryGenerator.Feature.METRIC_AGG)
                    ? Set.of("documents", "search", "aggregations") : Set.of("documents", "search");
            // OpenSearch scores BM25 without Elasticsearch's (k1+1) factor, so relevance-ordered results are compared
            // with Elasticsearch (the specification) only
            boolean byScore = q.body().path("sort").path(0).has("_score");
            Set<Engine> engines = byScore ? EnumSet.of(Engine.ELASTICSEARCH) : all;
            cases.add(new Scenario.Case(q.name(), RequestSpec.json("POST", index + "/_search", Json.compact(q.body())),
                    ScenarioLoader.DEFAULT_HEADERS, List.of(), engines, needs));
        }
        return new Scenario(id, "generated corpus of " + documents + " documents and " + queries
                + " queries from seed " + seed, all, List.of(), setup, cases);
    }

    /** The seed of the highlight differential: {@code -Dcompat.highlight.seed=N} over the scenario file's. */
    public static final String HIGHLIGHT_SEED = "compat.highlight.seed";
    /** Its number of searches: {@code -Dcompat.highlight.queries=N} over the scenario file's. */
    public static final String HIGHLIGHT_QUERIES = "compat.highlight.queries";

    /**
     * The highlight differential: {@link HighlightGenerator}'s corpus and searches (compared with Elasticsearch only,
     * the specification). The seed and the number of searches come from the scenario file unless the system
     * properties {@value #HIGHLIGHT_SEED} / {@value #HIGHLIGHT_QUERIES} are set (to run more locally).
     */
    public static Scenario highlightScenario(String id, long seed, int documents, int queries) {
        long usedSeed = Long.getLong(HIGHLIGHT_SEED, seed);
        int used = Integer.getInteger(HIGHLIGHT_QUERIES, queries);
        CorpusGenerator.Corpus corpus = HighlightGenerator.corpus(usedSeed, documents);
        String index = "/" + corpus.index();
        Set<Engine> es = EnumSet.of(Engine.ELASTICSEARCH);
        List<Scenario.Case> cases = new ArrayList<>();
        for (HighlightGenerator.GeneratedSearch q : HighlightGenerator.generate(usedSeed, corpus, used, true)) {
            cases.add(new Scenario.Case(q.name(), RequestSpec.json("POST", index + "/_search", Json.compact(q.body())),
                    ScenarioLoader.DEFAULT_HEADERS, List.of(), es, Set.of("documents", "search")));
        }
        return new Scenario(id, "highlight differential: " + documents + " documents, " + used
                + " generated searches from seed " + usedSeed, es, List.of(), setup(corpus), cases);
    }

    /** Create the corpus's index (one shard, no replica) and bulk its documents. */
    public static List<Scenario.Step> setup(CorpusGenerator.Corpus corpus) {
        String index = "/" + corpus.index();
        ObjectNode create = CorpusGenerator.F.objectNode();
        create.putObject("settings").put("number_of_shards", 1).put("number_of_replicas", 0);
        create.set("mappings", corpus.mappings());
        StringBuilder bulk = new StringBuilder();
        corpus.bulkLines().forEach(l -> bulk.append(Json.compact(l)).append('\n'));
        return List.of(new Scenario.Step(RequestSpec.json("PUT", index, Json.compact(create)), Set.of()),
                new Scenario.Step(new RequestSpec("POST", index + "/_bulk?refresh=true", bulk.toString(),
                        "application/x-ndjson", Map.of()), Set.of("documents")));
    }
}
