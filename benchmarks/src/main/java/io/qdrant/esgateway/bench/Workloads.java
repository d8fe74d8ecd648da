package io.qdrant.esgateway.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * The workloads of a run, in report order. Each read workload's request set is drawn from the corpus with its own
 * seeded {@link Random}, so the same seed gives the same bytes for every engine and every run.
 */
public final class Workloads {
    private static final String SEARCH = "/" + Corpus.INDEX + "/_search";

    private Workloads() {
    }

    public static List<Workload> all(Corpus corpus, long seed, int distinct, boolean vectors) {
        List<Workload> list = new ArrayList<>();
        list.add(Workload.special("bulk-ingest", "bulk ingest (1,000 docs per _bulk) until all are searchable",
                Workload.Kind.INGEST));
        list.add(read("get", "read one document (GET _doc)", Answers.Shape.DOCUMENT, seed, 1, distinct,
                r -> Request.get("/" + Corpus.INDEX + "/_doc/" + pick(corpus, r).id())));
        list.add(read("sorted-page", "term + range filter, sort price desc + rank asc, size 20, exact total",
                Answers.Shape.SEARCH, seed, 2, distinct, r -> search(sortedPage(corpus, r, false))));
        list.add(read("cursor-page", "the same page after a search_after cursor", Answers.Shape.SEARCH, seed, 3,
                distinct, r -> search(sortedPage(corpus, r, true))));
        list.add(read("terms", "keyword terms buckets (terms agg on category, size 0)", Answers.Shape.SEARCH, seed, 4,
                distinct, r -> search(terms(r))));
        list.add(read("filter-counts", "two filter counts (filters agg) + exact total, size 0", Answers.Shape.SEARCH,
                seed, 5, distinct, r -> search(filterCounts(r))));
        list.add(read("match", "text match on title, top 10 by score (rank breaks ties), exact total",
                Answers.Shape.SEARCH_IGNORING_SORT_VALUES, seed, 6, distinct, r -> search(match(r))));
        if (vectors) {
            list.add(read("knn", "kNN (k 10, 100 candidates, l2_norm, 8 dims) with a category filter",
                    Answers.Shape.SEARCH_IGNORING_SORT_VALUES, seed, 7, distinct,
                    r -> Request.json("POST", "/" + Corpus.VECTOR_INDEX + "/_search", Json.compact(knn(r)))));
        }
        if (vectors) {
            list.add(scriptScoreVector(seed, distinct));
        }
        list.add(Workload.special("scroll-10k", "scroll the whole index (10,000 documents at the default size) in"
                + " pages of 1,000, sorted by _doc, then clear it: every document exactly once", Workload.Kind.SCROLL));
        list.add(Workload.special("write-read", "index a document (no refresh), then GET it",
                Workload.Kind.WRITE_THEN_READ));
        list.add(Workload.special("write-refresh-count", "index a document with refresh=true, then _count by filter",
                Workload.Kind.WRITE_THEN_COUNT));
        return List.copyOf(list);
    }

    /** The script-score-vector workload's name: opt-in ({@link #OPT_IN}). */
    static final String SCRIPT_SCORE_VECTOR = "script-score-vector";

    /**
     * Workloads that run only when named in {@code --workloads}: script-score-vector, whose request (a Painless
     * script) the Elasticsearch the runner starts cannot run (its Maven artifacts have no Painless), so its reference
     * answers come from Elasticsearch's own exact request instead.
     */
    static final java.util.Set<String> OPT_IN = java.util.Set.of(SCRIPT_SCORE_VECTOR);

    /**
     * Exact vector retrieval as es-py's {@code ExactRetrievalStrategy} and LangChain send it: a {@code script_score}
     * with {@code cosineSimilarity(params.query_vector, 'embedding_cosine') + 1.0} over a category filter, top 10.
     * The reference engine is sent the exact kNN that answers the same: a top-level {@code knn} (k 10) on the same
     * field, whose {@code flat} index makes it a brute-force search, with the same filter. Neither counts its total
     * (a kNN search's total is its {@code k}): {@code track_total_hits: false} on both; ids in order are checked.
     */
    private static Workload scriptScoreVector(long seed, int distinct) {
        Random random = new Random(seed * 1_000_003L + 8);
        List<Request> requests = new ArrayList<>(distinct);
        List<Request> reference = new ArrayList<>(distinct);
        String path = "/" + Corpus.VECTOR_INDEX + "/_search";
        for (int i = 0; i < distinct; i++) {
            ObjectNode body = scriptScoreVector(random);
            body.put("track_total_hits", false);
            requests.add(Request.json("POST", path, Json.compact(body)));
            ObjectNode scriptScore = (ObjectNode) body.path("query").path("script_score");
            ObjectNode knnBody = Json.object();
            ObjectNode knn = knnBody.putObject("knn");
            knn.put("field", Corpus.COSINE_FIELD);
            knn.set("query_vector", scriptScore.path("script").path("params").path("query_vector").deepCopy());
            knn.put("k", 10);
            knn.put("num_candidates", 10);
            knn.set("filter", scriptScore.path("query").path("bool").path("filter").path(0).deepCopy());
            knnBody.put("size", 10);
            knnBody.put("_source", false);
            knnBody.put("track_total_hits", false);
            reference.add(Request.json("POST", path, Json.compact(knnBody)));
        }
        return new Workload(SCRIPT_SCORE_VECTOR, "exact kNN by script_score cosineSimilarity + 1.0 (8 dims) over a"
                + " category filter, top 10 (reference: ES knn on a flat index)", Workload.Kind.READ,
                Answers.Shape.SEARCH_IGNORING_SORT_VALUES, List.copyOf(requests), List.copyOf(reference));
    }

    private static Workload read(String name, String title, Answers.Shape shape, long seed, int salt, int distinct,
                                 Function<Random, Request> make) {
        Random random = new Random(seed * 1_000_003L + salt);
        List<Request> requests = new ArrayList<>(distinct);
        for (int i = 0; i < distinct; i++) {
            requests.add(make.apply(random));
        }
        return new Workload(name, title, Workload.Kind.READ, shape, List.copyOf(requests));
    }

    /** Whether the workload reads the vector index (an engine without {@code dense_vector} cannot run it). */
    static boolean usesVectors(Workload w) {
        return w.name().equals("knn") || w.name().equals("script-score-vector");
    }

    private static Request search(ObjectNode body) {
        return Request.json("POST", SEARCH, Json.compact(body));
    }

    private static Corpus.Doc pick(Corpus corpus, Random r) {
        return corpus.docs().get(r.nextInt(corpus.size()));
    }

    static ObjectNode sortedPage(Corpus corpus, Random r, boolean cursor) {
        Corpus.Doc anchor = pick(corpus, r);
        int low = Math.max(1, anchor.price() - 100 - r.nextInt(200));
        int high = Math.min(1000, anchor.price() + 100 + r.nextInt(200));
        ObjectNode body = Json.object();
        ArrayNode filter = body.putObject("query").putObject("bool").putArray("filter");
        filter.addObject().putObject("term").put("category", anchor.category());
        filter.addObject().putObject("range").putObject("price").put("gte", low).put("lte", high);
        ArrayNode sort = body.putArray("sort");
        sort.addObject().put("price", "desc");
        sort.addObject().put("rank", "asc");
        body.put("size", 20);
        body.put("track_total_hits", true);
        if (cursor) {
            body.putArray("search_after").add(anchor.price()).add(anchor.rank());
        }
        return body;
    }

    static ObjectNode terms(Random r) {
        ObjectNode body = Json.object();
        body.put("size", 0);
        body.put("track_total_hits", true);
        int low = 1 + r.nextInt(500);
        body.putObject("query").putObject("range").putObject("price").put("gte", low).put("lte", low + 200 + r.nextInt(300));
        body.putObject("aggs").putObject("categories").putObject("terms").put("field", "category")
                .put("size", Corpus.CATEGORIES);
        return body;
    }

    static ObjectNode filterCounts(Random r) {
        ObjectNode body = Json.object();
        body.put("size", 0);
        body.put("track_total_hits", true);
        body.putObject("query").putObject("term").put("available", r.nextBoolean());
        ObjectNode filters = body.putObject("aggs").putObject("counts").putObject("filters").putObject("filters");
        filters.putObject("cheap").putObject("range").putObject("price").put("lt", 50 + r.nextInt(400));
        filters.putObject("category").putObject("term").put("category", Corpus.category(r.nextInt(Corpus.CATEGORIES)));
        return body;
    }

    static ObjectNode match(Random r) {
        List<String> v = Corpus.VOCABULARY;
        // draw like the corpus does, so the words occur
        String words = v.get((int) (Math.pow(r.nextDouble(), 2) * v.size())) + " "
                + v.get((int) (Math.pow(r.nextDouble(), 2) * v.size()));
        ObjectNode body = Json.object();
        body.putObject("query").putObject("match").put("title", words);
        ArrayNode sort = body.putArray("sort");
        sort.addObject().put("_score", "desc");
        sort.addObject().put("rank", "asc");
        body.put("size", 10);
        body.put("track_total_hits", true);
        return body;
    }

    /** The exact retrieval of es-py's {@code ExactRetrievalStrategy}: every filtered document scored by a script. */
    static ObjectNode scriptScoreVector(Random r) {
        ObjectNode body = Json.object();
        ObjectNode scriptScore = body.putObject("query").putObject("script_score");
        scriptScore.putObject("query").putObject("bool").putArray("filter").addObject().putObject("term")
                .put("category", Corpus.category(r.nextInt(Corpus.CATEGORIES)));
        ObjectNode script = scriptScore.putObject("script");
        script.put("source", "cosineSimilarity(params.query_vector, '" + Corpus.COSINE_FIELD + "') + 1.0");
        ArrayNode vector = script.putObject("params").putArray("query_vector");
        for (int d = 0; d < Corpus.DIMS; d++) {
            vector.add((r.nextInt(201) - 100) / 100f);
        }
        body.put("size", 10);
        body.put("_source", false);
        return body;
    }

    static ObjectNode knn(Random r) {
        ObjectNode body = Json.object();
        ObjectNode knn = body.putObject("knn");
        knn.put("field", "embedding");
        ArrayNode vector = knn.putArray("query_vector");
        for (int d = 0; d < Corpus.DIMS; d++) {
            vector.add((r.nextInt(201) - 100) / 100f);
        }
        knn.put("k", 10);
        knn.put("num_candidates", 100);
        knn.putObject("filter").putObject("term").put("category", Corpus.category(r.nextInt(Corpus.CATEGORIES)));
        body.put("size", 10);
        body.put("_source", false);
        return body;
    }
}
