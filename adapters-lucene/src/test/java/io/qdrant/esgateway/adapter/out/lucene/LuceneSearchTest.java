package io.qdrant.esgateway.adapter.out.lucene;

import static io.qdrant.esgateway.domain.error.Failures.failure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.document.ParsedDocument;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.IndexHits;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LuceneSearchTest {
    @TempDir
    Path temp;

    private LuceneStores.Handle store;
    private IndexMetadata index;
    private long seq;

    @BeforeEach
    void open() {
        store = LuceneStores.open(temp.resolve("data"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    private void create(String mapping) {
        index = new IndexMetadata("idx", "u" + System.nanoTime(), Instant.EPOCH, IndexSettings.DEFAULTS,
                Mappings.parse(Json.parse(mapping)));
        store.createIndex(index);
    }

    /** Indexes sources given as {@code id -> json}, in order. */
    private void docs(String... idAndSource) {
        List<DocumentWrite> writes = new ArrayList<>();
        for (int i = 0; i < idAndSource.length; i += 2) {
            ParsedDocument parsed = DocumentParser.parse(index.mappings(), Json.parse(idAndSource[i + 1]),
                    idAndSource[i]);
            writes.add(new DocumentWrite.Upsert(new IndexableDocument(idAndSource[i],
                    new DocumentVersion(1, seq++, 1), parsed.source(), parsed.values())));
        }
        store.write(index, writes, seq - 1);
    }

    private IndexHits search(String body) {
        return search(body, 1000);
    }

    private IndexHits search(String body, int topN) {
        SearchRequest request = SearchRequestParser.parse(Optional.of(Json.parse(body)), Map.of());
        return store.search(index, request, topN);
    }

    private List<String> ids(String body) {
        return search(body).hits().stream().map(Hit::id).toList();
    }

    private List<String> query(String query) {
        return ids("{\"query\":" + query + "}");
    }

    private static final String MAPPING = """
            {"properties":{
              "tag":{"type":"keyword"},
              "title":{"type":"text","fields":{"raw":{"type":"keyword"}}},
              "n":{"type":"long"},
              "i":{"type":"integer"},
              "d":{"type":"double"},
              "f":{"type":"float"},
              "b":{"type":"boolean"},
              "t":{"type":"date"},
              "ymd":{"type":"date","format":"yyyy/MM/dd"},
              "obj":{"properties":{"a":{"type":"keyword"},"c":{"type":"long"}}}
            }}""";

    @Nested
    class TermLevel {
        @BeforeEach
        void corpus() {
            create(MAPPING);
            docs("1", """
                            {"tag":["red","Blue"],"title":"The Quick Brown Fox","n":5,"i":1,"d":1.5,"f":0.5,"b":true,
                             "t":"2024-01-01T10:00:00Z","ymd":"2024/01/01","obj":{"a":"x"}}""",
                    "2", """
                            {"tag":"green","title":"lazy dogs","n":[7,9],"d":-2.25,"b":false,"t":"2024-01-02",
                             "obj":{"c":3}}""",
                    "3", """
                            {"tag":null,"title":"","n":[],"b":"true","t":1704067200000}""",
                    "4", "{}");
        }

        @Test
        void termOnKeywordMatchesAnyValueOfAnArray() {
            assertThat(query("{\"term\":{\"tag\":\"red\"}}")).containsExactly("1");
            assertThat(query("{\"term\":{\"tag\":\"blue\"}}")).isEmpty();
            assertThat(query("{\"term\":{\"tag\":{\"value\":\"blue\",\"case_insensitive\":true}}}"))
                    .containsExactly("1");
        }

        @Test
        void termOnTextIsNotAnalysed() {
            assertThat(query("{\"term\":{\"title\":\"quick\"}}")).containsExactly("1");
            assertThat(query("{\"term\":{\"title\":\"Quick\"}}")).isEmpty();
            assertThat(query("{\"term\":{\"title.raw\":\"lazy dogs\"}}")).containsExactly("2");
        }

        @Test
        void numericTermsCoerceAndReject() {
            assertThat(query("{\"term\":{\"n\":\"9\"}}")).containsExactly("2");
            assertThat(query("{\"term\":{\"n\":5}}")).containsExactly("1");
            assertThat(query("{\"term\":{\"n\":5.5}}")).isEmpty();
            assertThat(query("{\"term\":{\"d\":-2.25}}")).containsExactly("2");
            assertThat(query("{\"term\":{\"f\":\"0.5\"}}")).containsExactly("1");
            assertThat(query("{\"terms\":{\"n\":[5,\"7\",1]}}")).containsExactlyInAnyOrder("1", "2");
            GatewayException e = failure(() -> query("{\"term\":{\"n\":\"abc\"}}"));
            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.getMessage()).contains("abc");
            assertThat(failure(() -> query("{\"term\":{\"i\":3000000000}}")).getMessage())
                    .contains("out of range for an integer");
        }

        @Test
        void booleans() {
            assertThat(query("{\"term\":{\"b\":true}}")).containsExactlyInAnyOrder("1", "3");
            assertThat(query("{\"term\":{\"b\":\"false\"}}")).containsExactly("2");
            assertThat(failure(() -> query("{\"term\":{\"b\":\"yes\"}}")).kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
        }

        @Test
        void ranges() {
            assertThat(query("{\"range\":{\"n\":{\"gt\":5}}}")).containsExactly("2");
            assertThat(query("{\"range\":{\"n\":{\"gte\":5,\"lt\":7}}}")).containsExactly("1");
            assertThat(query("{\"range\":{\"n\":{\"gt\":4.5,\"lte\":5.9}}}")).containsExactly("1");
            assertThat(query("{\"range\":{\"d\":{\"gt\":-2.25}}}")).containsExactly("1");
            assertThat(query("{\"range\":{\"d\":{\"gte\":-2.25}}}")).containsExactlyInAnyOrder("1", "2");
            assertThat(query("{\"range\":{\"tag\":{\"gte\":\"a\",\"lt\":\"s\"}}}")).containsExactlyInAnyOrder("1",
                    "2");
            assertThat(query("{\"range\":{\"n\":{}}}")).containsExactlyInAnyOrder("1", "2");
        }

        @Test
        void dateRangesRoundAsElasticsearch() {
            // doc 1: 2024-01-01T10:00Z, doc 2: 2024-01-02T00:00Z, doc 3: 2024-01-01T00:00Z
            assertThat(query("{\"range\":{\"t\":{\"lte\":\"2024-01-01\"}}}")).containsExactlyInAnyOrder("1", "3");
            assertThat(query("{\"range\":{\"t\":{\"lt\":\"2024-01-01\"}}}")).isEmpty();
            assertThat(query("{\"range\":{\"t\":{\"gt\":\"2024-01-01\"}}}")).containsExactly("2");
            assertThat(query("{\"range\":{\"t\":{\"gte\":\"2024-01-01||+1d/d\"}}}")).containsExactly("2");
            assertThat(query("{\"range\":{\"t\":{\"gt\":\"2024-01-01T10:00:00Z||/d\"}}}")).containsExactly("2");
            assertThat(query("{\"range\":{\"t\":{\"lte\":\"now\"}}}")).containsExactlyInAnyOrder("1", "2", "3");
            assertThat(query("{\"range\":{\"t\":{\"gte\":\"now-1d/d\"}}}")).isEmpty();
            assertThat(query("{\"range\":{\"t\":{\"gte\":\"2024-01-01T11:00:00\",\"time_zone\":\"+02:00\","
                    + "\"lt\":\"2024-01-01T13:00:00\"}}}")).containsExactly("1");
            assertThat(query("{\"range\":{\"t\":{\"gte\":\"01.01.2024\",\"format\":\"dd.MM.yyyy\","
                    + "\"lte\":\"01.01.2024\"}}}")).containsExactlyInAnyOrder("1", "3");
            assertThat(query("{\"range\":{\"ymd\":{\"gte\":\"2024/01/01\"}}}")).containsExactly("1");
            assertThat(query("{\"term\":{\"t\":\"2024-01-01\"}}")).containsExactlyInAnyOrder("1", "3");
        }

        @Test
        void existsFollowsDocValuesNormsOrVectors() {
            assertThat(query("{\"exists\":{\"field\":\"tag\"}}")).containsExactlyInAnyOrder("1", "2");
            assertThat(query("{\"exists\":{\"field\":\"n\"}}")).containsExactlyInAnyOrder("1", "2");
            assertThat(query("{\"exists\":{\"field\":\"title\"}}")).containsExactlyInAnyOrder("1", "2", "3");
            assertThat(query("{\"exists\":{\"field\":\"obj\"}}")).containsExactlyInAnyOrder("1", "2");
            assertThat(query("{\"exists\":{\"field\":\"nope\"}}")).isEmpty();
        }

        @Test
        void idsPrefixWildcardRegexpFuzzy() {
            assertThat(query("{\"ids\":{\"values\":[\"2\",\"4\",\"9\"]}}")).containsExactlyInAnyOrder("2", "4");
            assertThat(query("{\"prefix\":{\"tag\":\"gr\"}}")).containsExactly("2");
            assertThat(query("{\"prefix\":{\"tag\":{\"value\":\"BL\",\"case_insensitive\":true}}}"))
                    .containsExactly("1");
            assertThat(query("{\"prefix\":{\"title\":\"qui\"}}")).containsExactly("1");
            assertThat(query("{\"wildcard\":{\"tag\":\"g*n\"}}")).containsExactly("2");
            assertThat(query("{\"wildcard\":{\"tag\":{\"value\":\"B?UE\",\"case_insensitive\":true}}}"))
                    .containsExactly("1");
            assertThat(query("{\"regexp\":{\"tag\":\"r.d\"}}")).containsExactly("1");
            assertThat(query("{\"fuzzy\":{\"tag\":\"gren\"}}")).containsExactly("2");
            assertThat(query("{\"fuzzy\":{\"title\":{\"value\":\"quack\",\"fuzziness\":1}}}")).containsExactly("1");
            assertThat(failure(() -> query("{\"prefix\":{\"n\":\"1\"}}")).kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
        }

        @Test
        void unmappedFieldsMatchNothing() {
            assertThat(query("{\"term\":{\"nope\":\"x\"}}")).isEmpty();
            assertThat(query("{\"range\":{\"nope\":{\"gte\":1}}}")).isEmpty();
            assertThat(query("{\"match\":{\"nope\":\"x\"}}")).isEmpty();
        }
    }

    /** An {@code exists} over more leaves than Lucene's clause limit (1,024): one leaf query, the same matches. */
    @Nested
    class WideExists {
        private static final int FIELDS = 1_500;

        @BeforeEach
        void corpus() {
            StringBuilder mapping = new StringBuilder("{\"properties\":{\"other\":{\"type\":\"keyword\"},");
            mapping.append("\"wide\":{\"properties\":{");
            for (int i = 0; i < FIELDS; i++) {
                mapping.append(i == 0 ? "" : ",").append("\"w").append(i).append("\":{\"type\":")
                        .append(i % 3 == 0 ? "\"keyword\"" : i % 3 == 1 ? "\"long\"" : "\"text\"").append('}');
            }
            mapping.append("}},");
            for (int i = 0; i < FIELDS; i++) {
                mapping.append(i == 0 ? "" : ",").append("\"f").append(i).append("\":{\"type\":\"keyword\"}");
            }
            create(mapping.append("}}").toString());
            docs("1", "{\"f1499\":\"x\",\"wide\":{\"w1499\":\"\"}}",
                    "2", "{\"f3\":\"y\",\"other\":\"o\"}",
                    "3", "{\"other\":\"o\",\"wide\":{\"w1\":null}}",
                    "4", "{\"wide\":{\"w700\":7}}");
        }

        @Test
        void aWildcardOverMoreFieldsThanTheClauseLimit() {
            assertThat(query("{\"exists\":{\"field\":\"f*\"}}")).containsExactlyInAnyOrder("1", "2");
            assertThat(query("{\"exists\":{\"field\":\"f14*\"}}")).containsExactly("1");
            assertThat(query("{\"exists\":{\"field\":\"*\"}}")).containsExactlyInAnyOrder("1", "2", "3", "4");
        }

        @Test
        void anObjectWithMoreLeavesThanTheClauseLimit() {
            // an empty text has a norm and exists (as in Elasticsearch); a null does not
            assertThat(query("{\"exists\":{\"field\":\"wide\"}}")).containsExactlyInAnyOrder("1", "4");
            assertThat(query("{\"bool\":{\"must_not\":{\"exists\":{\"field\":\"wide\"}}}}"))
                    .containsExactlyInAnyOrder("2", "3");
            assertThat(query("{\"bool\":{\"filter\":[{\"exists\":{\"field\":\"wide\"}},"
                    + "{\"exists\":{\"field\":\"f*\"}}]}}")).containsExactly("1");
        }

        @Test
        void aBoolWithMoreClausesThanTheLimitIsA400NamingIt() {
            StringBuilder bool = new StringBuilder("{\"bool\":{\"should\":[");
            for (int i = 0; i < 1_100; i++) {
                bool.append(i == 0 ? "" : ",").append("{\"term\":{\"f").append(i).append("\":\"x\"}}");
            }
            GatewayException e = failure(() -> query(bool.append("]}}").toString()));
            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.reason()).isEqualTo("Query contains too many nested clauses; maxClauseCount is set to 1024");
        }

        @Test
        void theSameMatchesAsOneClauseEach() {
            for (String field : List.of("f1*", "f*9", "wide.w1*", "wide.w7*")) {
                String wide = "{\"exists\":{\"field\":\"" + field + "\"}}";
                assertThat(query(wide)).as(field).containsExactlyInAnyOrderElementsOf(
                        query("{\"bool\":{\"should\":[" + wide + ",{\"match_none\":{}}]}}"));
            }
            assertThat(query("{\"exists\":{\"field\":\"wide.w1*\"}}")).containsExactly("1"); // w1499: text ""
            assertThat(query("{\"exists\":{\"field\":\"wide.w7*\"}}")).containsExactly("4");
        }
    }

    @Nested
    class Compound {
        @BeforeEach
        void corpus() {
            create(MAPPING);
            docs("1", "{\"tag\":\"a\",\"n\":1}", "2", "{\"tag\":\"b\",\"n\":2}", "3", "{\"tag\":\"c\",\"n\":3}");
        }

        @Test
        void boolSemantics() {
            // should is optional next to must/filter
            assertThat(query("{\"bool\":{\"filter\":[{\"range\":{\"n\":{\"gte\":2}}}],"
                    + "\"should\":[{\"term\":{\"tag\":\"a\"}}]}}")).containsExactlyInAnyOrder("2", "3");
            // unless minimum_should_match says otherwise
            assertThat(query("{\"bool\":{\"filter\":[{\"range\":{\"n\":{\"gte\":2}}}],"
                    + "\"should\":[{\"term\":{\"tag\":\"b\"}}],\"minimum_should_match\":1}}")).containsExactly("2");
            // only should: at least one
            assertThat(query("{\"bool\":{\"should\":[{\"term\":{\"tag\":\"a\"}},{\"term\":{\"tag\":\"c\"}}]}}"))
                    .containsExactlyInAnyOrder("1", "3");
            // pure must_not: all but, score 0
            IndexHits neg = search("{\"query\":{\"bool\":{\"must_not\":[{\"term\":{\"tag\":\"a\"}}]}}}");
            assertThat(neg.hits()).extracting(Hit::id).containsExactly("2", "3");
            assertThat(neg.hits()).allSatisfy(h -> assertThat(h.score()).isEqualTo(0f));
            assertThat(query("{\"bool\":{}}")).hasSize(3);
            assertThat(query("{\"bool\":{\"should\":[{\"term\":{\"tag\":\"a\"}},{\"term\":{\"n\":1}},"
                    + "{\"term\":{\"n\":2}}],\"minimum_should_match\":\"67%\"}}")).containsExactly("1");
            // 60% of 3 rounds down to 1
            assertThat(query("{\"bool\":{\"should\":[{\"term\":{\"tag\":\"a\"}},{\"term\":{\"n\":1}},"
                    + "{\"term\":{\"n\":2}}],\"minimum_should_match\":\"60%\"}}")).containsExactly("1", "2");
        }

        @Test
        void constantScoreBoostingAndDisMax() {
            IndexHits cs = search("{\"query\":{\"constant_score\":{\"filter\":{\"term\":{\"tag\":\"a\"}},"
                    + "\"boost\":3.5}}}");
            assertThat(cs.hits().get(0).score()).isEqualTo(3.5f);
            IndexHits boosting = search("{\"query\":{\"boosting\":{\"positive\":{\"constant_score\":{\"filter\":"
                    + "{\"range\":{\"n\":{\"gte\":1}}}}},\"negative\":{\"term\":{\"tag\":\"b\"}},"
                    + "\"negative_boost\":0.25}}}");
            assertThat(boosting.hits()).extracting(Hit::id).containsExactly("1", "3", "2");
            assertThat(boosting.hits().get(2).score()).isEqualTo(0.25f);
            IndexHits dm = search("{\"query\":{\"dis_max\":{\"queries\":[{\"constant_score\":{\"filter\":{\"term\":"
                    + "{\"tag\":\"a\"}},\"boost\":2}},{\"constant_score\":{\"filter\":{\"term\":{\"n\":1}}}}],"
                    + "\"tie_breaker\":0.5}}}");
            assertThat(dm.hits().get(0).score()).isEqualTo(2.5f);
        }
    }

    @Nested
    class FullText {
        @BeforeEach
        void corpus() {
            create(MAPPING);
            docs("1", "{\"title\":\"The Quick Brown Fox\",\"tag\":\"Fox\",\"n\":1}",
                    "2", "{\"title\":\"quick brown dogs jump\",\"tag\":\"dog\",\"n\":2}",
                    "3", "{\"title\":\"A fox, quickly\",\"tag\":\"fox\",\"n\":3}",
                    "4", "{\"title\":\"brown quick fox\",\"n\":4}");
        }

        @Test
        void matchAnalysesWithOperatorAndMinimumShouldMatch() {
            assertThat(query("{\"match\":{\"title\":\"QUICK fox\"}}")).containsExactlyInAnyOrder("1", "2", "3",
                    "4");
            assertThat(query("{\"match\":{\"title\":{\"query\":\"QUICK fox\",\"operator\":\"and\"}}}"))
                    .containsExactlyInAnyOrder("1", "4");
            assertThat(query("{\"match\":{\"title\":{\"query\":\"quick fox dogs\",\"minimum_should_match\":2}}}"))
                    .containsExactlyInAnyOrder("1", "2", "4");
            assertThat(query("{\"match\":{\"title\":{\"query\":\"quikc\",\"fuzziness\":\"AUTO\"}}}"))
                    .containsExactlyInAnyOrder("1", "2", "4");
            assertThat(query("{\"match\":{\"title\":{\"query\":\"...\",\"zero_terms_query\":\"all\"}}}")).hasSize(4);
            assertThat(query("{\"match\":{\"title\":\"...\"}}")).isEmpty();
        }

        @Test
        void matchOnNonTextFields() {
            assertThat(query("{\"match\":{\"tag\":\"Fox\"}}")).containsExactly("1");
            assertThat(query("{\"match\":{\"n\":\"2\"}}")).containsExactly("2");
            assertThat(query("{\"match\":{\"n\":{\"query\":\"two\",\"lenient\":true}}}")).isEmpty();
            assertThat(failure(() -> query("{\"match\":{\"n\":\"two\"}}")).kind())
                    .isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
        }

        @Test
        void phrases() {
            assertThat(query("{\"match_phrase\":{\"title\":\"quick brown\"}}")).containsExactlyInAnyOrder("1", "2");
            assertThat(query("{\"match_phrase\":{\"title\":{\"query\":\"quick fox\",\"slop\":1}}}"))
                    .containsExactlyInAnyOrder("1", "4");
            assertThat(query("{\"match_phrase_prefix\":{\"title\":\"brown d\"}}")).containsExactly("2");
            assertThat(query("{\"match_phrase_prefix\":{\"title\":\"qui\"}}")).containsExactlyInAnyOrder("1", "2",
                    "3", "4");
        }

        @Test
        void multiMatchAndQueryString() {
            assertThat(query("{\"multi_match\":{\"query\":\"fox\",\"fields\":[\"title\",\"tag^2\"]}}"))
                    .containsExactlyInAnyOrder("1", "3", "4");
            List<String> best = query("{\"multi_match\":{\"query\":\"fox\",\"fields\":[\"tag^10\",\"title\"]}}");
            assertThat(best.get(0)).isEqualTo("3");
            assertThat(query("{\"multi_match\":{\"query\":\"quick brown\",\"type\":\"phrase\",\"fields\":[\"t*\"]}}"))
                    .containsExactlyInAnyOrder("1", "2");
            assertThat(query("{\"query_string\":{\"query\":\"title:fox AND NOT tag:fox\"}}"))
                    .containsExactlyInAnyOrder("1", "4");
            assertThat(query("{\"query_string\":{\"query\":\"dog\"}}")).containsExactly("2");
            float plain = search("{\"query\":{\"query_string\":{\"query\":\"title:dogs\"}}}").hits().get(0).score();
            float boosted = search("{\"query\":{\"query_string\":{\"query\":\"title:dogs\",\"boost\":3}}}")
                    .hits().get(0).score();
            assertThat(boosted).isCloseTo(plain * 3, within(1e-5f));
            assertThat(query("{\"query_string\":{\"query\":\"title:Qui*\"}}")).containsExactlyInAnyOrder("1", "2",
                    "3", "4");
            assertThat(query("{\"query_string\":{\"query\":\"n:[2 TO 3]\"}}")).containsExactlyInAnyOrder("2", "3");
            assertThat(query("{\"simple_query_string\":{\"query\":\"fox -brown\",\"default_operator\":\"and\"}}"))
                    .containsExactly("3");
        }
    }

    @Nested
    class Scoring {
        @Test
        void bm25IsElasticsearchsScale() throws Exception {
            create("{\"properties\":{\"body\":{\"type\":\"text\"}}}");
            docs("1", "{\"body\":\"quick fox\"}", "2", "{\"body\":\"quick brown fox jumps\"}",
                    "3", "{\"body\":\"lazy dog\"}");
            IndexHits hits = search("{\"query\":{\"match\":{\"body\":\"fox\"}}}");
            assertThat(hits.hits()).extracting(Hit::id).containsExactly("1", "2");
            // idf = ln(1 + (3 - 2 + 0.5) / (2 + 0.5)); avgdl = 8/3; ES: idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 dl/avgdl))
            double idf = Math.log(1 + 1.5 / 2.5);
            double s1 = idf * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 2 / (8.0 / 3)));
            double s2 = idf * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 4 / (8.0 / 3)));
            assertThat((double) hits.hits().get(0).score()).isCloseTo(s1, within(1e-5));
            assertThat((double) hits.hits().get(0).score()).isCloseTo(0.5235484, within(1e-5));
            assertThat((double) hits.hits().get(1).score()).isCloseTo(s2, within(1e-5));
            assertThat(hits.maxScore()).isEqualTo(hits.hits().get(0).score());

            store.close(); // commits the writes to Lucene (they are in the translog until then)
            try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(
                    temp.resolve("data").resolve("indices").resolve(index.uuid())))) {
                IndexSearcher plain = new IndexSearcher(reader);
                plain.setSimilarity(new BM25Similarity());
                ScoreDoc[] lucene = plain.search(new org.apache.lucene.search.TermQuery(
                        new org.apache.lucene.index.Term("body", "fox")), 10).scoreDocs;
                assertThat(hits.hits().get(0).score()).isCloseTo(lucene[0].score * 2.2f, within(1e-5f));
                assertThat(hits.hits().get(1).score()).isCloseTo(lucene[1].score * 2.2f, within(1e-5f));
            }
        }

        @Test
        void tiesByIndexOrderAndMinScore() {
            create(MAPPING);
            docs("b", "{\"tag\":\"x\"}", "a", "{\"tag\":\"x\"}", "c", "{\"tag\":\"x\"}");
            assertThat(query("{\"term\":{\"tag\":\"x\"}}")).containsExactly("b", "a", "c");
            IndexHits none = search("{\"query\":{\"constant_score\":{\"filter\":{\"term\":{\"tag\":\"x\"}}}},"
                    + "\"min_score\":1.5}");
            assertThat(none.hits()).isEmpty();
            assertThat(none.total().orElseThrow().value()).isZero();
        }
    }

    @Nested
    class Sorting {
        @BeforeEach
        void corpus() {
            create(MAPPING);
            docs("1", "{\"tag\":[\"m\",\"a\"],\"n\":[5,1],\"d\":2.5,\"b\":true,\"t\":\"2024-01-02\",\"f\":1.1}",
                    "2", "{\"tag\":\"k\",\"n\":3,\"d\":-1,\"b\":false,\"t\":\"2024-01-01\"}",
                    "3", "{\"n\":[2,4]}",
                    "4", "{}");
        }

        @Test
        void multiValuedMinMaxAndMissing() {
            assertThat(ids("{\"sort\":[{\"n\":\"asc\"}]}")).containsExactly("1", "3", "2", "4");
            assertThat(ids("{\"sort\":[{\"n\":\"desc\"}]}")).containsExactly("1", "3", "2", "4");
            assertThat(ids("{\"sort\":[{\"n\":{\"order\":\"asc\",\"mode\":\"max\"}}]}"))
                    .containsExactly("2", "3", "1", "4");
            assertThat(ids("{\"sort\":[{\"n\":{\"order\":\"desc\",\"missing\":\"_first\"}}]}"))
                    .containsExactly("4", "1", "3", "2");
            assertThat(ids("{\"sort\":[{\"tag\":\"asc\"}]}")).containsExactly("1", "2", "3", "4");
            assertThat(ids("{\"sort\":[{\"tag\":\"desc\"}]}")).containsExactly("1", "2", "3", "4");
            assertThat(ids("{\"sort\":[{\"tag\":{\"order\":\"asc\",\"missing\":\"_first\"}}]}"))
                    .containsExactly("3", "4", "1", "2");
            assertThat(ids("{\"sort\":[{\"n\":{\"order\":\"asc\",\"missing\":0}}]}"))
                    .containsExactly("4", "1", "3", "2");
        }

        @Test
        void sortValuesRenderedAsElasticsearch() {
            IndexHits asc = search("{\"sort\":[{\"n\":\"asc\"},{\"tag\":\"asc\"},{\"d\":\"asc\"},{\"b\":\"asc\"},"
                    + "{\"t\":\"asc\"},{\"f\":\"asc\"},\"_score\",\"_doc\"]}");
            Hit first = asc.hits().get(0);
            assertThat(first.sort()).containsExactly(JsonValue.number(1), JsonValue.string("a"),
                    new JsonValue.JsonNumber(2.5), JsonValue.number(1), JsonValue.number(1704153600000L),
                    new JsonValue.JsonNumber(1.1), new JsonValue.JsonNumber(1.0), JsonValue.number(0));
            Hit last = asc.hits().get(3);
            assertThat(last.id()).isEqualTo("4");
            assertThat(last.sort()).containsExactly(JsonValue.number(Long.MAX_VALUE), JsonValue.JsonNull.INSTANCE,
                    JsonValue.string("Infinity"), JsonValue.number(Long.MAX_VALUE), JsonValue.number(Long.MAX_VALUE),
                    JsonValue.string("Infinity"), new JsonValue.JsonNumber(1.0), JsonValue.number(3));
            IndexHits desc = search("{\"sort\":[{\"n\":\"desc\"},{\"d\":\"desc\"}]}");
            assertThat(desc.hits().get(3).sort()).containsExactly(JsonValue.number(Long.MIN_VALUE),
                    JsonValue.string("-Infinity"));
            // sorted by field: not scored unless track_scores
            assertThat(desc.hits()).allSatisfy(h -> assertThat(h.scored()).isFalse());
            assertThat(desc.maxScore()).isNaN();
            IndexHits tracked = search("{\"sort\":[{\"n\":\"desc\"}],\"track_scores\":true}");
            assertThat(tracked.hits()).allSatisfy(h -> assertThat(h.score()).isEqualTo(1f));
            IndexHits formatted = search("{\"sort\":[{\"t\":{\"order\":\"asc\",\"format\":\"yyyy/MM/dd\"}}]}");
            assertThat(formatted.hits().get(0).sort()).containsExactly(JsonValue.string("2024/01/01"));
        }

        @Test
        void unmappedSorts() {
            assertThat(failure(() -> ids("{\"sort\":[{\"nope\":\"asc\"}]}")).getMessage())
                    .contains("No mapping found for [nope]");
            assertThat(ids("{\"sort\":[{\"nope\":{\"order\":\"asc\",\"unmapped_type\":\"long\"}}]}")).hasSize(4);
            assertThat(failure(() -> ids("{\"sort\":[\"title\"]}")).getMessage()).contains("Text fields");
        }
    }

    @Nested
    class Paging {
        @Test
        void searchAfterVisitsEveryDocumentOnceInOrder() {
            create(MAPPING);
            List<String> sources = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                sources.add(String.format("%04d", i));
                sources.add("{\"n\":" + (i % 17) + ",\"tag\":\"" + String.format("%04d", i) + "\"}");
            }
            docs(sources.toArray(String[]::new));
            List<String> seen = new ArrayList<>();
            String after = "";
            while (true) {
                IndexHits page = search("{\"size\":37,\"sort\":[{\"n\":\"desc\"},{\"tag\":\"asc\"}]" + after + "}",
                        37);
                if (page.hits().isEmpty()) {
                    break;
                }
                assertThat(page.total().orElseThrow().value()).isEqualTo(1000);
                page.hits().forEach(h -> seen.add(h.id()));
                List<JsonValue> last = page.hits().get(page.hits().size() - 1).sort();
                after = ",\"search_after\":[" + Json.write(last.get(0)) + "," + Json.write(last.get(1)) + "]";
            }
            assertThat(seen).hasSize(1000);
            Set<String> unique = new HashSet<>(seen);
            assertThat(unique).hasSize(1000);
            List<String> expected = new ArrayList<>(seen);
            expected.sort((a, b) -> {
                int na = Integer.parseInt(a) % 17;
                int nb = Integer.parseInt(b) % 17;
                return na != nb ? Integer.compare(nb, na) : a.compareTo(b);
            });
            assertThat(seen).isEqualTo(expected);
        }

        @Test
        void totalsFollowTrackTotalHits() {
            create(MAPPING);
            List<String> sources = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                sources.add("d" + i);
                sources.add("{\"n\":" + i + "}");
            }
            docs(sources.toArray(String[]::new));
            assertThat(search("{\"track_total_hits\":10}", 5).total()).contains(new IndexHits.Total(10, false));
            assertThat(search("{\"track_total_hits\":100}", 5).total()).contains(new IndexHits.Total(50, true));
            assertThat(search("{\"track_total_hits\":true}", 5).total()).contains(new IndexHits.Total(50, true));
            assertThat(search("{\"track_total_hits\":false}", 5).total()).isEmpty();
            assertThat(search("{}", 0).total()).contains(new IndexHits.Total(50, true));
            assertThat(search("{\"track_total_hits\":10}", 0).total()).contains(new IndexHits.Total(10, false));
            assertThat(search("{\"post_filter\":{\"range\":{\"n\":{\"lt\":5}}}}", 100).total())
                    .contains(new IndexHits.Total(5, true));
            assertThat(store.count(index, Optional.empty())).isEqualTo(50);
            assertThat(store.count(index, Optional.of(new io.qdrant.esgateway.domain.query.Query.Range("n",
                    Optional.of(new io.qdrant.esgateway.domain.query.Query.Bound(JsonValue.number(40), true)),
                    Optional.empty(), Optional.empty(), Optional.empty(), 1f)))).isEqualTo(10);
        }
    }

    @Nested
    class Knn {
        private void vectors(String similarity) {
            create("{\"properties\":{\"v\":{\"type\":\"dense_vector\",\"dims\":2,\"similarity\":\"" + similarity
                    + "\"},\"tag\":{\"type\":\"keyword\"}}}");
            docs("1", "{\"v\":[0.6,0.8],\"tag\":\"a\"}", "2", "{\"v\":[1.0,0.0],\"tag\":\"b\"}",
                    "3", "{\"v\":[0.0,1.0],\"tag\":\"a\"}");
        }

        private IndexHits knn(String extra) {
            return search("{\"knn\":{\"field\":\"v\",\"query_vector\":[1.0,0.0],\"k\":2,\"num_candidates\":10"
                    + extra + "}}");
        }

        @Test
        void cosine() {
            vectors("cosine");
            IndexHits hits = knn("");
            assertThat(hits.hits()).extracting(Hit::id).containsExactly("2", "1");
            assertThat(hits.hits().get(0).score()).isCloseTo(1f, within(1e-6f));
            assertThat(hits.hits().get(1).score()).isCloseTo((1 + 0.6f) / 2, within(1e-6f));
            assertThat(hits.total()).contains(new IndexHits.Total(2, true));
        }

        @Test
        void dotProduct() {
            vectors("dot_product");
            IndexHits hits = knn(",\"filter\":{\"term\":{\"tag\":\"a\"}}");
            assertThat(hits.hits()).extracting(Hit::id).containsExactly("1", "3");
            assertThat(hits.hits().get(0).score()).isCloseTo((1 + 0.6f) / 2, within(1e-6f));
            assertThat(hits.hits().get(1).score()).isCloseTo(0.5f, within(1e-6f));
        }

        @Test
        void l2NormAndCombinationWithQuery() {
            vectors("l2_norm");
            IndexHits hits = knn("");
            float d2 = 0.4f * 0.4f + 0.8f * 0.8f;
            assertThat(hits.hits().get(1).score()).isCloseTo(1 / (1 + d2), within(1e-6f));
            IndexHits combined = search("{\"query\":{\"constant_score\":{\"filter\":{\"term\":{\"tag\":\"a\"}}}},"
                    + "\"knn\":{\"field\":\"v\",\"query_vector\":[1.0,0.0],\"k\":2,\"num_candidates\":10}}");
            // union of the query's and the kNN's hits, scores summed
            assertThat(combined.hits()).extracting(Hit::id).containsExactly("1", "2", "3");
            assertThat(combined.hits().get(0).score()).isCloseTo(1 + 1 / (1 + d2), within(1e-6f));
            assertThat(combined.hits().get(1).score()).isCloseTo(1f, within(1e-6f));
            assertThat(combined.hits().get(2).score()).isEqualTo(1f);
        }
    }

    @Nested
    class SortModes {
        @BeforeEach
        void corpus() {
            create("{\"properties\":{\"n\":{\"type\":\"long\"},\"d\":{\"type\":\"double\"},"
                    + "\"f\":{\"type\":\"float\"},\"k\":{\"type\":\"keyword\"}}}");
            docs("1", "{\"n\":[1,10],\"d\":[1.5,2.5],\"k\":\"a\"}",
                    "2", "{\"n\":[4,5,6],\"d\":[3.0],\"k\":\"b\"}",
                    "3", "{\"n\":7,\"d\":[0.5,9.0,2.0,1.0],\"k\":\"c\"}",
                    "4", "{\"k\":\"d\"}");
        }

        private List<String> sortValues(String sort) {
            return search("{\"sort\":[" + sort + ",\"k\"]}").hits().stream()
                    .map(h -> h.id() + "=" + Json.write(h.sort().get(0))).toList();
        }

        @Test
        void sumAverageAndMedianReduceEachDocumentsValues() {
            assertThat(sortValues("{\"n\":{\"order\":\"asc\",\"mode\":\"sum\"}}"))
                    .containsExactly("3=7", "1=11", "2=15", "4=9223372036854775807");
            assertThat(sortValues("{\"n\":{\"order\":\"desc\",\"mode\":\"avg\"}}"))
                    .as("the average of [1, 10] rounds to 6").containsExactly("3=7", "1=6", "2=5",
                            "4=-9223372036854775808");
            assertThat(sortValues("{\"d\":{\"order\":\"asc\",\"mode\":\"median\"}}"))
                    .containsExactly("3=1.5", "1=2.0", "2=3.0", "4=\"Infinity\"");
            assertThat(sortValues("{\"d\":{\"order\":\"asc\",\"mode\":\"avg\"}}"))
                    .containsExactly("1=2.0", "2=3.0", "3=3.125", "4=\"Infinity\"");
        }

        @Test
        void modesOtherThanMinAndMaxNeedANumber() {
            assertThat(failure(() -> search("{\"sort\":[{\"k\":{\"mode\":\"sum\"}}]}")).reason())
                    .isEqualTo("Sort mode [sum] is not supported on field [k] of type [keyword]");
            assertThat(failure(() -> search("{\"sort\":[{\"f\":{\"mode\":\"avg\"}}]}")).kind())
                    .isEqualTo(io.qdrant.esgateway.domain.error.ErrorKind.UNSUPPORTED);
        }
    }

    @Nested
    class IndexPrefixes {
        @BeforeEach
        void corpus() {
            create("""
                    {"properties":{"p":{"type":"text","index_prefixes":{"min_chars":2,"max_chars":4}},
                                   "q":{"type":"text"}}}""");
            docs("1", "{\"p\":\"quick brown fox\",\"q\":\"quick brown fox\"}",
                    "2", "{\"p\":\"quiet brook\",\"q\":\"quiet brook\"}");
        }

        @Test
        void prefixQueriesAnswerAsWithoutIndexedPrefixes() {
            assertThat(query("{\"prefix\":{\"p\":\"qui\"}}")).containsExactlyInAnyOrder("1", "2");
            assertThat(query("{\"match_phrase_prefix\":{\"p\":{\"query\":\"quick bro\",\"slop\":1}}}"))
                    .as("with a slop Elasticsearch does not read the indexed prefixes").containsExactly("1");
            assertThat(query("{\"match_phrase_prefix\":{\"p\":\"quick brown\"}}"))
                    .as("a last term longer than max_chars").containsExactly("1");
            assertThat(query("{\"match_phrase_prefix\":{\"q\":\"quick bro\"}}")).containsExactly("1");
        }

        @Test
        void aPhrasePrefixWithinTheIndexedLengthsReadsTheHiddenFieldOfPrefixes() {
            assertThat(query("{\"match_phrase_prefix\":{\"p\":\"quick bro\"}}")).containsExactly("1");
            assertThat(query("{\"match_phrase_prefix\":{\"p\":\"qui\"}}")).containsExactlyInAnyOrder("1", "2");
            assertThat(query("{\"match_phrase_prefix\":{\"p\":\"quiet broo\"}}")).containsExactly("2");
            assertThat(query("{\"multi_match\":{\"query\":\"qu\",\"type\":\"phrase_prefix\","
                    + "\"fields\":[\"p\",\"q\"]}}")).containsExactlyInAnyOrder("1", "2");
            // the prefix terms are scored from their own field: not the expanded terms' scores
            float indexed = search("{\"query\":{\"match_phrase_prefix\":{\"p\":\"qui\"}}}").hits().get(0).score();
            float expanded = search("{\"query\":{\"match_phrase_prefix\":{\"q\":\"qui\"}}}").hits().get(0).score();
            assertThat(indexed).isNotEqualTo(expanded);
        }
    }

    @Nested
    class Graphs {
        @BeforeEach
        void corpus() {
            index = new IndexMetadata("idx", "u" + System.nanoTime(), Instant.EPOCH, IndexSettings.parse(Json.parse("""
                    {"analysis":{"filter":{"syn":{"type":"synonym_graph","synonyms":["ny, new york"]}},
                     "analyzer":{"syn":{"tokenizer":"standard","filter":["lowercase","syn"]}}}}""")),
                    Mappings.parse(Json.parse("{\"properties\":{\"t\":{\"type\":\"text\","
                            + "\"search_analyzer\":\"syn\"}}}")));
            store.createIndex(index);
            docs("1", "{\"t\":\"new york city\"}", "2", "{\"t\":\"ny city\"}", "3", "{\"t\":\"york new city\"}");
        }

        @Test
        void fuzzyMatchBuildsTheGraphQuery() {
            assertThat(query("{\"match\":{\"t\":{\"query\":\"ny cty\",\"fuzziness\":1,\"operator\":\"and\"}}}"))
                    .as("the multi-word side is a phrase, not its words at their positions").containsExactlyInAnyOrder("1", "2");
        }

        @Test
        void aPhrasePrefixOverAGraphFollowsItsPaths() {
            assertThat(query("{\"match_phrase_prefix\":{\"t\":\"ny ci\"}}"))
                    .as("either side of the synonym, then a word starting with ci").containsExactlyInAnyOrder("1", "2");
            assertThat(query("{\"match_phrase_prefix\":{\"t\":\"city n\"}}")).isEmpty();
            assertThat(query("{\"match_phrase_prefix\":{\"t\":\"ny zz\"}}")).isEmpty();
            assertThat(query("{\"match_phrase_prefix\":{\"t\":{\"query\":\"ny ci\",\"slop\":2}}}"))
                    .containsExactlyInAnyOrder("1", "2", "3");
        }
    }

    @Nested
    class IndexPhrases {
        @BeforeEach
        void corpus() {
            create("""
                    {"properties":{"p":{"type":"text","index_phrases":true},"q":{"type":"text"}}}""");
            docs("1", "{\"p\":\"quick brown fox\",\"q\":\"quick brown fox\"}",
                    "2", "{\"p\":\"brown quick fox\",\"q\":\"brown quick fox\"}",
                    "3", "{\"p\":[\"quick\",\"brown fox\"],\"q\":[\"quick\",\"brown fox\"]}");
        }

        @Test
        void phrasesWithoutSlopMatchTheShingles() {
            assertThat(query("{\"match_phrase\":{\"p\":\"quick brown fox\"}}")).containsExactly("1");
            assertThat(query("{\"match_phrase\":{\"p\":\"brown fox\"}}")).containsExactlyInAnyOrder("1", "3");
            assertThat(query("{\"match_phrase\":{\"p\":\"quick brown\"}}"))
                    .as("no shingle across the values of an array").containsExactly("1");
            assertThat(query("{\"match_phrase\":{\"p\":{\"query\":\"quick fox\",\"slop\":1}}}"))
                    .as("with a slop the field's terms answer").containsExactlyInAnyOrder("1", "2");
            float shingles = search("{\"query\":{\"match_phrase\":{\"p\":\"brown fox\"}}}").hits().get(0).score();
            float terms = search("{\"query\":{\"match_phrase\":{\"q\":\"brown fox\"}}}").hits().get(0).score();
            assertThat(shingles).as("scored from the field of shingles").isNotEqualTo(terms);
        }
    }

    @Nested
    class PositionIncrementGap {
        @Test
        void theFieldsGapSeparatesTheValuesOfAnArray() {
            create("""
                    {"properties":{"none":{"type":"text","position_increment_gap":0},
                                   "ten":{"type":"text","position_increment_gap":10},
                                   "plain":{"type":"text"}}}""");
            docs("1", "{\"none\":[\"a b\",\"c d\"],\"ten\":[\"a b\",\"c d\"],\"plain\":[\"a b\",\"c d\"]}");
            assertThat(query("{\"match_phrase\":{\"none\":\"b c\"}}")).containsExactly("1");
            assertThat(query("{\"match_phrase\":{\"plain\":{\"query\":\"b c\",\"slop\":99}}}")).isEmpty();
            assertThat(query("{\"match_phrase\":{\"plain\":{\"query\":\"b c\",\"slop\":100}}}"))
                    .containsExactly("1");
            assertThat(query("{\"match_phrase\":{\"ten\":{\"query\":\"b c\",\"slop\":9}}}")).isEmpty();
            assertThat(query("{\"match_phrase\":{\"ten\":{\"query\":\"b c\",\"slop\":10}}}"))
                    .containsExactly("1");
        }
    }
}
