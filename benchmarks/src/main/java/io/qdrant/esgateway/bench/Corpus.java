package io.qdrant.esgateway.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The seeded document set every engine receives: {@code rank} (a permutation of 1..N, so {@code price desc, rank asc}
 * is a total order), {@code price} (1..1000, many ties), a 20-value keyword {@code category}, {@code title} and
 * {@code description} text over a fixed vocabulary, a boolean {@code available}, a date {@code created}, and an
 * 8-dimensional {@code embedding} that goes to a separate vector index (not every engine has {@code dense_vector}).
 */
public final class Corpus {
    public static final String INDEX = "bench";
    public static final String VECTOR_INDEX = "bench-vectors";
    public static final int CATEGORIES = 20;
    public static final int DIMS = 8;
    public static final List<String> VOCABULARY = vocabulary();

    /** One document: its id, its source (main index) and its vector. */
    public record Doc(String id, int rank, int price, String category, ObjectNode source, float[] vector) {
    }

    private final List<Doc> docs;

    private Corpus(List<Doc> docs) {
        this.docs = docs;
    }

    public static Corpus generate(long seed, int size) {
        Random random = new Random(seed);
        List<Integer> ranks = new ArrayList<>(size);
        for (int i = 1; i <= size; i++) {
            ranks.add(i);
        }
        Collections.shuffle(ranks, random);
        LocalDate epoch = LocalDate.of(2020, 1, 1);
        List<Doc> docs = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            int rank = ranks.get(i);
            int price = 1 + random.nextInt(1000);
            String category = category(random.nextInt(CATEGORIES));
            ObjectNode source = Json.object();
            source.put("rank", rank);
            source.put("price", price);
            source.put("category", category);
            source.put("title", words(random, 3 + random.nextInt(4)));
            source.put("description", words(random, 8 + random.nextInt(13)));
            source.put("available", random.nextBoolean());
            source.put("created", epoch.plusDays(random.nextInt(1500)).toString());
            float[] vector = new float[DIMS];
            for (int d = 0; d < DIMS; d++) {
                vector[d] = (random.nextInt(201) - 100) / 100f;
            }
            docs.add(new Doc("d" + i, rank, price, category, source, vector));
        }
        return new Corpus(List.copyOf(docs));
    }

    public static String category(int n) {
        return String.format(java.util.Locale.ROOT, "cat-%02d", n);
    }

    public List<Doc> docs() {
        return docs;
    }

    public int size() {
        return docs.size();
    }

    /** The main index: one shard, no replica (a single node stays green), the same mapping for every engine. */
    public static String mapping() {
        return mapping(true);
    }

    /** As {@link #mapping()}; without the request cache ({@code index.requests.cache.enable: false}) if so asked. */
    public static String mapping(boolean requestCache) {
        return mapping(requestCache, java.util.Optional.empty());
    }

    /** As {@link #mapping(boolean)}, with {@code title} analysed by {@code titleAnalyzer} when given. */
    public static String mapping(boolean requestCache, java.util.Optional<String> titleAnalyzer) {
        return """
                {"settings":{"number_of_shards":1,"number_of_replicas":0%s},
                 "mappings":{"properties":{
                   "rank":{"type":"integer"},"price":{"type":"integer"},"category":{"type":"keyword"},
                   "title":{"type":"text"%s},"description":{"type":"text"},"available":{"type":"boolean"},
                   "created":{"type":"date"}}}}""".formatted(requestCache ? ""
                : ",\"index.requests.cache.enable\":false",
                titleAnalyzer.map(a -> ",\"analyzer\":\"" + a + "\"").orElse(""));
    }

    /** The vector index: float HNSW on both sides (ES 8.15 would otherwise quantize to int8 and rank differently). */
    public static String vectorMapping() {
        return vectorMapping(false);
    }

    /**
     * The vector index, with {@code cosine} also {@link #COSINE_FIELD}: the same vector under the {@code cosine}
     * similarity with a {@code flat} index (exact kNN on Elasticsearch), for the script-score-vector workload.
     */
    public static String vectorMapping(boolean cosine) {
        return vectorMapping(cosine, true);
    }

    /**
     * The same; without {@code flat} the cosine field has the engine's default index (the gateway has no {@code flat}
     * index: its answers to the workload come from the script, which reads the vectors, not from an index).
     */
    public static String vectorMapping(boolean cosine, boolean flat) {
        return """
                {"settings":{"number_of_shards":1,"number_of_replicas":0},
                 "mappings":{"properties":{
                   "rank":{"type":"integer"},"category":{"type":"keyword"},
                   "embedding":{"type":"dense_vector","dims":%d,"index":true,"similarity":"l2_norm",
                                "index_options":{"type":"hnsw"}}%s}}}""".formatted(DIMS, cosine
                ? ",\n   \"" + COSINE_FIELD + "\":{\"type\":\"dense_vector\",\"dims\":" + DIMS
                        + ",\"index\":true,\"similarity\":\"cosine\"" + (flat ? ",\"index_options\":{\"type\":\"flat\"}" : "")
                        + "}" : "");
    }

    /** The cosine twin of {@code embedding} ({@link #vectorMapping(boolean)}). */
    public static final String COSINE_FIELD = "embedding_cosine";

    /** How many {@code _bulk} bodies of at most {@code batch} documents the corpus makes. */
    public int batches(int batch) {
        return (docs.size() + batch - 1) / batch;
    }

    /**
     * The NDJSON {@code _bulk} body of batch {@code n} (0-based, at most {@code batch} documents) for the main or the
     * vector index; made on demand, so a million-document corpus is never held as text all at once.
     */
    public String bulkBody(int n, int batch, boolean vectors) {
        return bulkBody(n, batch, vectors, false);
    }

    /** The same, the vector index's documents with {@link #COSINE_FIELD} too when {@code cosine}. */
    public String bulkBody(int n, int batch, boolean vectors, boolean cosine) {
        StringBuilder sb = new StringBuilder();
        for (Doc doc : docs.subList(n * batch, Math.min(docs.size(), (n + 1) * batch))) {
            sb.append("{\"index\":{\"_index\":\"").append(vectors ? VECTOR_INDEX : INDEX).append("\",\"_id\":\"")
                    .append(doc.id()).append("\"}}\n");
            sb.append(Json.compact(vectors ? vectorSource(doc, cosine) : doc.source())).append('\n');
        }
        return sb.toString();
    }

    static ObjectNode vectorSource(Doc doc) {
        return vectorSource(doc, false);
    }

    static ObjectNode vectorSource(Doc doc, boolean cosine) {
        ObjectNode source = Json.object();
        source.put("rank", doc.rank());
        source.put("category", doc.category());
        ArrayNode v = source.putArray("embedding");
        for (float f : doc.vector()) {
            v.add(f);
        }
        if (cosine) {
            ArrayNode c = source.putArray(COSINE_FIELD);
            for (float f : doc.vector()) {
                c.add(f);
            }
        }
        return source;
    }

    static String words(Random random, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                sb.append(' ');
            }
            // a skewed pick: low words are common, high words rare, as in real text
            int w = (int) (Math.pow(random.nextDouble(), 2) * VOCABULARY.size());
            sb.append(VOCABULARY.get(w));
        }
        return sb.toString();
    }

    private static List<String> vocabulary() {
        String[] a = {"ka", "lo", "mi", "nu", "re", "sa", "ti", "vo", "ze", "pa", "de", "gu", "ho", "ji", "be"};
        String[] b = {"ran", "lek", "mos", "tin", "dor", "vas", "pel", "gim", "sut", "far", "bon", "cle", "wix"};
        List<String> words = new ArrayList<>();
        for (String x : a) {
            for (String y : b) {
                words.add(x + y);
            }
        }
        return List.copyOf(words);
    }
}
