package io.qdrant.esgateway.adapter.out.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
import io.qdrant.esgateway.application.port.out.RelevanceScorer;
import io.qdrant.esgateway.application.port.out.RelevanceScorer.Candidate;
import io.qdrant.esgateway.application.port.out.RelevanceScorer.FieldStatistics;
import io.qdrant.esgateway.application.port.out.RelevanceScorer.FieldTerms;
import io.qdrant.esgateway.application.port.out.RelevanceScorer.Scored;
import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.document.ParsedDocument;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import io.qdrant.esgateway.adapter.out.lucene.encoding.FieldEncoding;

/**
 * The relevance scorer is exact: for a generated corpus and every scored query shape, scoring candidates with
 * whole-index statistics gives the embedded store's matches and the identical float scores — with the statistics
 * read from the store's Lucene index, and with the statistics summed from {@link RelevanceScorer#terms} (what the
 * Qdrant backend keeps per document), for all documents as candidates and for a random superset of the matches.
 */
class RelevanceScorerExactnessTest {
    private static final String MAPPING = """
            {"properties":{
              "title":{"type":"text","fields":{"raw":{"type":"keyword"}}},
              "body":{"type":"text"},
              "tags":{"type":"keyword"},
              "flag":{"type":"boolean"},
              "n":{"type":"integer"}}}""";
    private static final String[] WORDS = {"quick", "brown", "fox", "jumps", "over", "lazy", "dog", "river", "stone",
        "blue", "green", "red", "apple", "banana", "cherry", "delta", "echo", "Fox", "DOG", "the", "a", "of"};

    @TempDir
    Path temp;
    private LuceneStores.Handle store;
    private IndexMetadata index;
    private final RelevanceScorer scorer = LuceneStores.relevanceScorer();
    private final List<Candidate> candidates = new ArrayList<>();
    private final Map<String, Map<String, FieldTerms>> termsById = new LinkedHashMap<>();

    @BeforeEach
    void corpus() {
        store = LuceneStores.open(temp.resolve("data"));
        index = new IndexMetadata("idx", "u1", Instant.EPOCH, IndexSettings.DEFAULTS,
                Mappings.parse(Json.parse(MAPPING)));
        store.createIndex(index);
        Random random = new Random(42);
        List<DocumentWrite> writes = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            StringBuilder source = new StringBuilder("{");
            if (random.nextInt(10) > 0) {
                source.append("\"title\":").append(random.nextInt(6) == 0
                        ? "[\"" + words(random, 1 + random.nextInt(4)) + "\",\"" + words(random, random.nextInt(3))
                        + "\"]" : "\"" + words(random, random.nextInt(7)) + "\"").append(',');
            }
            if (random.nextInt(4) > 0) {
                source.append("\"body\":\"").append(words(random, 3 + random.nextInt(40))).append("\",");
            }
            if (random.nextBoolean()) {
                source.append("\"tags\":[\"").append(WORDS[random.nextInt(8)]).append("\",\"")
                        .append(WORDS[random.nextInt(8)]).append("\"],");
            }
            if (random.nextInt(3) > 0) {
                source.append("\"flag\":").append(random.nextInt(5) == 0 ? "[true,false]" : random.nextBoolean())
                        .append(',');
            }
            source.append("\"n\":").append(random.nextInt(10)).append('}');
            String id = "d" + i;
            ParsedDocument parsed = DocumentParser.parse(index.mappings(), Json.parse(source.toString()), id);
            writes.add(new DocumentWrite.Upsert(new IndexableDocument(id, new DocumentVersion(1, i, 1),
                    parsed.source(), parsed.values())));
            candidates.add(new Candidate(id, parsed.values()));
            termsById.put(id, scorer.terms(index, parsed.values()));
        }
        store.write(index, writes, writes.size() - 1);
        // the tests read the index's last Lucene commit beside the store: closing commits the translogged writes
        store.close();
        store = LuceneStores.open(temp.resolve("data"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    private static String words(Random random, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : random.nextInt(8) == 0 ? ", " : " ").append(WORDS[random.nextInt(WORDS.length)]);
        }
        return b.toString();
    }

    static List<String> queries() {
        return List.of(
                "{\"match\":{\"title\":\"quick fox\"}}",
                "{\"match\":{\"body\":{\"query\":\"lazy dog river\",\"operator\":\"and\"}}}",
                "{\"match\":{\"body\":{\"query\":\"lazy dog river apple\",\"minimum_should_match\":\"75%\"}}}",
                "{\"match\":{\"title\":{\"query\":\"blue\",\"boost\":2.5}}}",
                "{\"match\":{\"title.raw\":\"fox\"}}",
                "{\"match\":{\"tags\":\"fox\"}}",
                "{\"match_phrase\":{\"body\":\"brown fox\"}}",
                "{\"match_phrase\":{\"body\":{\"query\":\"quick fox\",\"slop\":2}}}",
                "{\"multi_match\":{\"query\":\"red apple\",\"fields\":[\"title^3\",\"body\"]}}",
                "{\"multi_match\":{\"query\":\"red apple\",\"fields\":[\"title\",\"body\"],\"type\":\"most_fields\"}}",
                "{\"multi_match\":{\"query\":\"green river\",\"fields\":[\"title\",\"body\"],\"type\":\"phrase\"}}",
                "{\"multi_match\":{\"query\":\"echo delta\",\"fields\":[\"title\",\"body\"],\"tie_breaker\":0.3}}",
                "{\"term\":{\"tags\":\"fox\"}}",
                "{\"term\":{\"title\":\"fox\"}}",
                "{\"terms\":{\"title\":[\"fox\",\"dog\"]}}",
                "{\"term\":{\"flag\":true}}",
                "{\"term\":{\"title.raw\":\"fox\"}}",
                "{\"bool\":{\"must\":{\"match\":{\"body\":\"dog\"}},\"should\":[{\"term\":{\"tags\":\"quick\"}},"
                        + "{\"match\":{\"title\":\"cherry\"}}],\"filter\":{\"range\":{\"n\":{\"gte\":3}}}}}",
                "{\"bool\":{\"should\":[{\"match\":{\"title\":\"apple\"}},{\"match\":{\"body\":\"banana\"}},"
                        + "{\"term\":{\"flag\":false}}],\"minimum_should_match\":2}}",
                "{\"bool\":{\"should\":[{\"match\":{\"title\":\"apple\"}}],\"must_not\":{\"match\":{\"body\":\"fox\"}}}}",
                "{\"dis_max\":{\"queries\":[{\"match\":{\"title\":\"stone\"}},{\"match\":{\"body\":\"stone\"}}],"
                        + "\"tie_breaker\":0.7}}",
                "{\"boosting\":{\"positive\":{\"match\":{\"body\":\"river\"}},\"negative\":{\"term\":{\"tags\":\"fox\"}},"
                        + "\"negative_boost\":0.2}}",
                "{\"query_string\":{\"query\":\"title:(quick OR lazy) AND body:dog\"}}",
                "{\"query_string\":{\"query\":\"\\\"brown fox\\\" river\",\"default_field\":\"body\"}}",
                "{\"simple_query_string\":{\"query\":\"apple +banana -cherry\",\"fields\":[\"title\",\"body\"]}}",
                "{\"constant_score\":{\"filter\":{\"match\":{\"body\":\"fox\"}},\"boost\":1.5}}",
                "{\"bool\":{\"must\":[{\"exists\":{\"field\":\"title\"}},{\"match\":{\"title\":\"the\"}}]}}",
                "{\"match\":{\"body\":\"\"}}",
                "{\"match_all\":{}}",
                // expansions over the whole index's term dictionary
                "{\"fuzzy\":{\"title\":\"fox\"}}",
                "{\"fuzzy\":{\"body\":{\"value\":\"rivr\",\"fuzziness\":2,\"max_expansions\":3}}}",
                "{\"fuzzy\":{\"tags\":{\"value\":\"dgo\",\"fuzziness\":\"AUTO\"}}}",
                "{\"match\":{\"title\":{\"query\":\"quik brwn\",\"fuzziness\":\"AUTO\"}}}",
                "{\"match_phrase_prefix\":{\"body\":\"brown f\"}}",
                "{\"match_phrase_prefix\":{\"body\":{\"query\":\"the b\",\"max_expansions\":2}}}",
                "{\"query_string\":{\"query\":\"fox~1 OR ech*\",\"default_field\":\"title\"}}",
                "{\"multi_match\":{\"query\":\"stone che\",\"fields\":[\"title\",\"body\"],"
                        + "\"type\":\"phrase_prefix\"}}",
                "{\"bool\":{\"must\":{\"match\":{\"body\":\"fox\"}},\"should\":{\"fuzzy\":{\"body\":\"foxs\"}}}}");
    }

    @ParameterizedTest
    @MethodSource("queries")
    void scoresAreTheStoresWithEitherStatistics(String queryJson) throws IOException {
        SearchRequest request = SearchRequestParser.parse(Optional.of(Json.parse("{\"query\":" + queryJson
                + ",\"size\":10000}")), Map.of());
        Map<String, Float> expected = new LinkedHashMap<>();
        for (Hit hit : store.search(index, request, 10_000).hits()) {
            expected.put(hit.id(), hit.score());
        }
        try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(temp.resolve("data").resolve("indices")
                .resolve(index.uuid())))) {
            RelevanceScorer.Statistics fromReader = readerStatistics(reader);
            RelevanceScorer.Statistics fromTerms = termStatistics();
            assertThat(scores(request, candidates, fromReader)).as("reader statistics").isEqualTo(expected);
            assertThat(scores(request, candidates, fromTerms)).as("per-document terms").isEqualTo(expected);
            // a superset: the matches plus a random third of the rest, in a shuffled order
            Random random = new Random(queryJson.hashCode());
            List<Candidate> superset = new ArrayList<>(candidates.stream()
                    .filter(c -> expected.containsKey(c.id()) || random.nextInt(3) == 0).toList());
            java.util.Collections.shuffle(superset, random);
            assertThat(scores(request, superset, fromTerms)).as("superset").isEqualTo(expected);
        }
    }

    @Test
    void perDocumentTermsSumToTheIndexStatistics() throws IOException {
        try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(temp.resolve("data").resolve("indices")
                .resolve(index.uuid())))) {
            RelevanceScorer.Statistics fromReader = readerStatistics(reader);
            RelevanceScorer.Statistics fromTerms = termStatistics();
            for (String field : List.of("title", "body", "tags", "flag", "title.raw")) {
                assertThat(fromTerms.field(field)).as(field).isEqualTo(fromReader.field(field));
                assertThat(fromTerms.field(field).docCount()).isPositive();
            }
            for (String word : WORDS) {
                String term = word.toLowerCase(java.util.Locale.ROOT);
                assertThat(fromTerms.docFreq("body", term)).isEqualTo(fromReader.docFreq("body", term));
                assertThat(fromTerms.docFreq("tags", word)).isEqualTo(fromReader.docFreq("tags", word));
            }
            assertThat(fromTerms.docFreq("flag", "true")).isEqualTo(fromReader.docFreq("flag", "true")).isPositive();
        }
    }

    @Test
    void scoresDependOnTheSuppliedStatistics() {
        SearchRequest request = SearchRequestParser.parse(Optional.of(Json.parse(
                "{\"query\":{\"match\":{\"title\":\"fox\"}}}")), Map.of());
        RelevanceScorer.Statistics real = termStatistics();
        RelevanceScorer.Statistics rarer = new RelevanceScorer.Statistics() {
            @Override
            public FieldStatistics field(String field) {
                return real.field(field);
            }

            @Override
            public long docFreq(String field, String term) {
                return 1;
            }
        };
        assertThat(scores(request, candidates, rarer)).isNotEqualTo(scores(request, candidates, real));
    }

    @Test
    void statisticsOfNamesTheScoredFieldsAndTermsOnly() {
        Query q = SearchRequestParser.parse(Optional.of(Json.parse("{\"query\": {\"bool\": {"
                + "\"must\": {\"match\": {\"title\": \"Quick FOX\"}}, \"should\": [{\"match_phrase\": {\"body\":"
                + " \"lazy dog\"}}, {\"term\": {\"flag\": true}}], \"filter\": {\"term\": {\"tags\": \"red\"}},"
                + " \"must_not\": {\"match\": {\"body\": \"river\"}}}}}")), Map.of()).query().orElseThrow();
        RelevanceScorer.Needed needed = scorer.statisticsOf(index, q);
        assertThat(needed.fields()).containsExactlyInAnyOrder("title", "body", "flag");
        assertThat(needed.terms()).containsEntry("title", java.util.Set.of("quick", "fox"))
                .containsEntry("body", java.util.Set.of("lazy", "dog")).containsEntry("flag", java.util.Set.of("true"));
        // and exactly those are what scoring asks for
        java.util.Set<String> asked = new java.util.TreeSet<>();
        RelevanceScorer.Statistics real = termStatistics();
        scorer.score(index, q, List.of(), candidates, new RelevanceScorer.Statistics() {
            @Override
            public FieldStatistics field(String field) {
                asked.add(field);
                return real.field(field);
            }

            @Override
            public long docFreq(String field, String term) {
                asked.add(field + ":" + term);
                return real.docFreq(field, term);
            }
        }, true, 0L);
        assertThat(asked).isSubsetOf("title", "body", "flag", "title:quick", "title:fox", "body:lazy", "body:dog",
                "flag:true").contains("title", "title:quick", "title:fox");
    }

    @Test
    void expansionsOnFieldPatternsAreRefused() {
        for (String q : List.of("{\"multi_match\":{\"query\":\"fo\",\"fields\":[\"t*\"],\"type\":\"phrase_prefix\"}}",
                "{\"multi_match\":{\"query\":\"fox\",\"fields\":[\"t*\"],\"fuzziness\":1}}")) {
            SearchRequest request = SearchRequestParser.parse(Optional.of(Json.parse("{\"query\":" + q + "}")),
                    Map.of());
            assertThatThrownBy(() -> scores(request, candidates, termStatistics())).as(q)
                    .isInstanceOf(GatewayException.class).hasMessageContaining("term dictionary");
        }
    }

    @Test
    void badQueriesFailAsTheStoreFails() {
        SearchRequest request = SearchRequestParser.parse(Optional.of(Json.parse(
                "{\"query\":{\"term\":{\"n\":\"abc\"}}}")), Map.of());
        assertThatThrownBy(() -> scorer.validate(index, request.query().get())).isInstanceOf(GatewayException.class);
        assertThatThrownBy(() -> store.search(index, request, 10)).isInstanceOf(GatewayException.class);
    }

    private Map<String, Float> scores(SearchRequest request, List<Candidate> from, RelevanceScorer.Statistics stats) {
        Map<String, Float> out = new HashMap<>();
        for (Scored s : scorer.score(index, request.query().get(), List.of(), from, stats, true, 0L)) {
            out.put(s.id(), s.score());
        }
        // in the order of the expected map's comparison (equality of maps ignores order)
        return out;
    }

    private RelevanceScorer.Statistics readerStatistics(DirectoryReader reader) {
        return new RelevanceScorer.Statistics() {
            @Override
            public FieldStatistics field(String field) {
                try {
                    return new FieldStatistics(reader.getDocCount(field), reader.getSumTotalTermFreq(field));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }

            @Override
            public Map<String, Long> dictionary(String field) {
                Map<String, Long> out = new HashMap<>();
                try {
                    org.apache.lucene.index.Terms terms = org.apache.lucene.index.MultiTerms.getTerms(reader, field);
                    if (terms != null) {
                        org.apache.lucene.index.TermsEnum e = terms.iterator();
                        for (BytesRef t = e.next(); t != null; t = e.next()) {
                            out.put(t.utf8ToString(), (long) e.docFreq());
                        }
                    }
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                return out;
            }

            @Override
            public long docFreq(String field, String term) {
                String indexed = index.mappings().field(field).orElseThrow()
                        instanceof io.qdrant.esgateway.domain.index.FieldMapping.BooleanField
                        ? (term.equals("true") ? FieldEncoding.TRUE : FieldEncoding.FALSE) : term;
                try {
                    return reader.docFreq(new Term(field, new BytesRef(indexed)));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        };
    }

    private RelevanceScorer.Statistics termStatistics() {
        return new RelevanceScorer.Statistics() {
            @Override
            public FieldStatistics field(String field) {
                long docs = 0;
                long sum = 0;
                for (Map<String, FieldTerms> terms : termsById.values()) {
                    FieldTerms t = terms.get(field);
                    if (t != null) {
                        docs++;
                        sum += t.length();
                    }
                }
                return new FieldStatistics(docs, sum);
            }

            @Override
            public Map<String, Long> dictionary(String field) {
                Map<String, Long> out = new HashMap<>();
                termsById.values().forEach(t -> {
                    if (t.containsKey(field)) {
                        t.get(field).terms().forEach(term -> out.merge(term, 1L, Long::sum));
                    }
                });
                return out;
            }

            @Override
            public long docFreq(String field, String term) {
                return termsById.values().stream().filter(t -> t.containsKey(field)
                        && t.get(field).terms().contains(term)).count();
            }
        };
    }
}
