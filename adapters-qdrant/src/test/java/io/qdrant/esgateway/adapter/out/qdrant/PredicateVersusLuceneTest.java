package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.adapter.out.lucene.LuceneStores;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.DocumentStore.ScanRequest;
import io.qdrant.esgateway.application.port.out.InMemoryCatalog;
import io.qdrant.esgateway.application.service.DocumentService;
import io.qdrant.esgateway.application.service.IndexAdministrationService;
import io.qdrant.esgateway.domain.document.Versioning;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.predicate.Predicate;
import io.qdrant.esgateway.domain.predicate.QueryNormalizer;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.query.dsl.QueryDsl;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Property test: the normalised predicate ({@link QueryNormalizer}, what the Qdrant filters trust) matches exactly the
 * documents the Lucene store matches (itself held to Elasticsearch by the compatibility suite), for random documents
 * (every field kind, arrays, nulls, {@code []}, missing fields, objects and arrays of objects) and random queries
 * (every query kind the predicate covers but {@code knn}, nested {@code bool} with every occurrence and every
 * {@code minimum_should_match} form, {@code dis_max}, {@code constant_score}, {@code boosting}). The predicate is
 * evaluated as boolean logic over its leaves, each leaf's matches read from the Lucene store, so what is checked is the
 * normaliser's structure. The same queries then run through the Qdrant store on {@link FakeQdrant} (its filter
 * translation and full-text path), each either refused with a 400 or matching exactly what Lucene matches.
 *
 * <p>A difference fails with the smallest query (shrunk greedily: clauses dropped, compounds replaced by a part,
 * leaves by {@code match_all}/{@code match_none}, {@code minimum_should_match} simplified) and the smallest document
 * (fields and array values dropped, re-indexed alone) that still show it. The seed is fixed; {@code
 * -Dqeg.predicate.queries=N} (default 400) and {@code -Dqeg.predicate.seed=S} run more or other queries.
 */
class PredicateVersusLuceneTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final long SEED = Long.getLong("qeg.predicate.seed", 20261203L);
    private static final int QUERIES = Integer.getInteger("qeg.predicate.queries", 400);
    private static final int DOCUMENTS = 70;
    private static final String MAPPING = """
            {"mappings": {"properties": {
              "k": {"type": "keyword"}, "kw": {"type": "keyword", "ignore_above": 4},
              "t": {"type": "text", "fields": {"raw": {"type": "keyword"}}},
              "l": {"type": "long"}, "i": {"type": "integer"}, "d": {"type": "double"}, "f": {"type": "float"},
              "h": {"type": "half_float"}, "b": {"type": "boolean"}, "dt": {"type": "date"},
              "o": {"properties": {"k": {"type": "keyword"}, "n": {"type": "integer"}}}
            }}}""";
    private static final String[] KEYWORDS = {"a", "b", "c", "A", "ab", "abc", "b c", "long one", ""};
    private static final String[] WORDS = {"quick", "brown", "fox", "dog", "Lazy", "the", "a", "b"};
    private static final String[] DATES = {"2024-01-01", "2024-01-02T10:00:00Z", "2024-01-03", "2023-12-31T23:59:59Z",
        "2024-02-29"};
    private static final String[] MSM = {"0", "1", "2", "3", "5", "-1", "-2", "-5", "\"0%\"", "\"25%\"", "\"33%\"",
        "\"50%\"", "\"66%\"", "\"75%\"", "\"100%\"", "\"150%\"", "\"-25%\"", "\"-50%\"", "\"-100%\"", "\"1<50%\"",
        "\"2<-1\"", "\"3<90%\"", "\"0<-1\"", "\"1<-25% 3<2\"", "\"2 < 75%\"", "\"2\""};

    @TempDir
    static Path temp;
    private static FakeQdrant fake;
    private static Side lucene;
    private static Side qdrant;
    private static final Map<String, JsonObject> CORPUS = new LinkedHashMap<>();
    private static final List<ObjectNode> GENERATED = new ArrayList<>();

    /** One backend with its services and its own catalog. */
    record Side(DocumentStore store, InMemoryCatalog catalog, IndexAdministrationService admin,
                DocumentService documents) {
        IndexMetadata index(String name) {
            return catalog.view().resolve(name, CatalogView.Options.STRICT_EXPAND_OPEN).get(0);
        }

        void create(String name, Map<String, JsonObject> documents) {
            admin.create(CreateIndexRequest.parse(name, Json.parse(MAPPING)));
            List<WriteCommand> bulk = new ArrayList<>();
            documents.forEach((id, source) -> bulk.add(new WriteCommand.Index(name, Optional.of(id), source, false,
                    Versioning.Condition.NONE, false)));
            if (!bulk.isEmpty()) {
                documents().bulk(bulk);
            }
        }

        /** The ids the store matches for {@code query} (through its complete scan). */
        Set<String> matches(String name, Query query) {
            Set<String> ids = new TreeSet<>();
            store.scan(index(name), new ScanRequest(ALL, false, Optional.of(query), Set.of(), false),
                    d -> ids.add(d.id()));
            return ids;
        }
    }

    private static final SearchRequest ALL = SearchRequestParser.parse(Optional.of(Json.parse("{}")), Map.of());

    static Side side(DocumentStore store) {
        StoreServices services = StoreServices.over(store);
        InMemoryCatalog catalog = services.catalog();
        IndexAdministrationService admin = services.admin();
        DocumentService documents = services.documents();
        return new Side(store, catalog, admin, documents);
    }

    @BeforeAll
    static void setUp() {
        fake = new FakeQdrant();
        lucene = side(LuceneStores.open(temp.resolve("lucene")));
        qdrant = side(QdrantStores.open(new QdrantStores.Settings(fake.uri(), Optional.empty(), Duration.ofSeconds(2),
                Duration.ofSeconds(10), "pred-"), LuceneStores.relevanceScorer()));
        Random random = new Random(SEED);
        for (int i = 0; i < DOCUMENTS; i++) {
            CORPUS.put("d" + i, document(random));
        }
        lucene.create("corpus", CORPUS);
        qdrant.create("corpus", CORPUS);
        Random queries = new Random(SEED + 1);
        for (int i = 0; i < QUERIES; i++) {
            GENERATED.add(query(queries, 0));
        }
    }

    @AfterAll
    static void tearDown() throws Exception {
        ((AutoCloseable) qdrant.store()).close();
        ((AutoCloseable) lucene.store()).close();
        fake.close();
    }

    // ------------------------------------------------------------------------------------------------ documents

    static JsonObject document(Random r) {
        ObjectNode d = NODES.objectNode();
        field(r, d, "k", () -> NODES.textNode(pick(r, KEYWORDS)));
        field(r, d, "kw", () -> NODES.textNode(pick(r, KEYWORDS)));
        field(r, d, "t", () -> NODES.textNode(words(r, 1 + r.nextInt(4))));
        field(r, d, "l", () -> NODES.numberNode((long) r.nextInt(12) - 3));
        field(r, d, "i", () -> r.nextInt(6) == 0 ? NODES.textNode(Integer.toString(r.nextInt(9)))
                : NODES.numberNode(r.nextInt(9)));
        field(r, d, "d", () -> NODES.numberNode(pick(r, new double[] {0.5, 1.0, 2.25, -1.5, 3.0, 0.1})));
        field(r, d, "f", () -> NODES.numberNode(pick(r, new double[] {0.5, 1.0, 2.25, -1.5, 3.0, 0.1})));
        field(r, d, "h", () -> NODES.numberNode(pick(r, new double[] {0.5, 1.0, 2.25, -1.5, 3.0, 0.1, 1000.3})));
        field(r, d, "b", () -> r.nextInt(5) == 0 ? NODES.textNode(r.nextBoolean() ? "true" : "false")
                : NODES.booleanNode(r.nextBoolean()));
        field(r, d, "dt", () -> r.nextInt(5) == 0 ? NODES.numberNode(1704067200000L + r.nextInt(5) * 43_200_000L)
                : NODES.textNode(pick(r, DATES)));
        int object = r.nextInt(6);
        if (object == 1 || object == 2) {
            d.set("o", inner(r));
        } else if (object == 3) {
            d.putArray("o").add(inner(r)).add(inner(r));
        } else if (object == 4) {
            d.putNull("o");
        }
        return (JsonObject) Json.parse(d.toString());
    }

    private static ObjectNode inner(Random r) {
        ObjectNode o = NODES.objectNode();
        field(r, o, "k", () -> NODES.textNode(pick(r, KEYWORDS)));
        field(r, o, "n", () -> NODES.numberNode(r.nextInt(5)));
        return o;
    }

    /** Missing, null, [], [null], one value, or an array of one to three values (sometimes with a null). */
    private static void field(Random r, ObjectNode d, String name, java.util.function.Supplier<JsonNode> value) {
        switch (r.nextInt(10)) {
            case 0, 1 -> {
            }
            case 2 -> d.putNull(name);
            case 3 -> d.putArray(name);
            case 4 -> d.putArray(name).addNull();
            case 5, 6 -> {
                ArrayNode a = d.putArray(name);
                for (int n = 1 + r.nextInt(3); n > 0; n--) {
                    a.add(value.get());
                }
                if (r.nextInt(4) == 0) {
                    a.addNull();
                }
            }
            default -> d.set(name, value.get());
        }
    }

    private static String words(Random r, int n) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < n; k++) {
            b.append(k == 0 ? "" : " ").append(pick(r, WORDS));
        }
        return b.toString();
    }

    private static String pick(Random r, String[] values) {
        return values[r.nextInt(values.length)];
    }

    private static double pick(Random r, double[] values) {
        return values[r.nextInt(values.length)];
    }

    // ------------------------------------------------------------------------------------------------ queries

    private static final String[] FIELDS = {"k", "kw", "t", "t.raw", "l", "i", "d", "f", "h", "b", "dt", "o.k", "o.n",
        "nope", "_id"};

    /** A random value of the kind {@code field} holds, sometimes as a string, sometimes of another kind. */
    private static JsonNode value(Random r, String field) {
        if (r.nextInt(12) == 0) {
            return NODES.textNode(pick(r, KEYWORDS));
        }
        return switch (field) {
            case "k", "kw", "t.raw", "o.k", "nope" -> NODES.textNode(pick(r, KEYWORDS));
            case "_id" -> NODES.textNode("d" + r.nextInt(DOCUMENTS + 5));
            case "t" -> NODES.textNode(pick(r, WORDS).toLowerCase(java.util.Locale.ROOT));
            case "l", "i", "o.n" -> r.nextInt(4) == 0 ? NODES.textNode(Integer.toString(r.nextInt(10) - 3))
                    : NODES.numberNode(r.nextInt(10) - 3);
            case "d", "f", "h" -> NODES.numberNode(pick(r, new double[] {0.5, 1.0, 2.25, -1.5, 3.0, 0.1, 1000.3, 2}));
            case "b" -> r.nextInt(3) == 0 ? NODES.textNode(r.nextBoolean() ? "true" : "false")
                    : NODES.booleanNode(r.nextBoolean());
            case "dt" -> r.nextInt(4) == 0 ? NODES.numberNode(1704067200000L + r.nextInt(5) * 43_200_000L)
                    : NODES.textNode(pick(r, DATES) + (r.nextInt(4) == 0 ? pick(r, new String[] {"||+1d", "||/d",
                    "||-12h/d", "||/M"}) : ""));
            default -> throw new IllegalArgumentException(field);
        };
    }

    private static ObjectNode leaf(String kind, String field, JsonNode body) {
        ObjectNode q = NODES.objectNode();
        q.putObject(kind).set(field, body);
        return q;
    }

    static ObjectNode query(Random r, int depth) {
        int kinds = depth >= 3 ? 14 : 20;
        String field = pick(r, FIELDS);
        String textual = pick(r, new String[] {"k", "kw", "t", "t.raw", "o.k"});
        return switch (r.nextInt(kinds)) {
            case 0 -> {
                ObjectNode body = NODES.objectNode();
                body.set("value", value(r, field));
                if (r.nextInt(5) == 0) {
                    body.put("case_insensitive", true);
                }
                yield leaf("term", field, r.nextBoolean() ? body : body.get("value"));
            }
            case 1 -> {
                ArrayNode values = NODES.arrayNode();
                for (int n = r.nextInt(4); n > 0; n--) {
                    values.add(value(r, field));
                }
                yield leaf("terms", field, values);
            }
            case 2, 3 -> {
                String rf = pick(r, new String[] {"l", "i", "d", "f", "h", "dt", "dt", "o.n", "k", "nope"});
                ObjectNode body = NODES.objectNode();
                for (String bound : List.of("gt", "gte", "lt", "lte")) {
                    if (r.nextInt(3) == 0) {
                        body.set(bound, value(r, rf));
                    }
                }
                if (rf.equals("dt") && r.nextInt(3) == 0) {
                    body.put("time_zone", pick(r, new String[] {"+01:00", "-05:00", "Europe/Paris"}));
                }
                yield leaf("range", rf, body);
            }
            case 4 -> leaf("exists", "field", NODES.textNode(pick(r, new String[] {"k", "kw", "t", "t.raw", "l", "b",
                "dt", "h", "o", "o.k", "o.n", "nope", "o.*"})));
            case 5 -> {
                ArrayNode values = NODES.arrayNode();
                for (int n = r.nextInt(4); n > 0; n--) {
                    values.add("d" + r.nextInt(DOCUMENTS + 5));
                }
                yield leaf("ids", "values", values);
            }
            case 6 -> leaf("prefix", textual, NODES.textNode(pick(r, new String[] {"a", "b", "A", "ab", "qu", "l"})));
            case 7 -> leaf("wildcard", textual, NODES.textNode(pick(r, new String[] {"a*", "*b*", "?", "a?c", "*"})));
            case 8 -> leaf("regexp", textual, NODES.textNode(pick(r, new String[] {"a.*", "b|c", "[ab]+", "a?b.",
                ".*"})));
            case 9 -> leaf("fuzzy", textual, NODES.textNode(pick(r, new String[] {"ab", "abd", "quack", "dgo"})));
            case 10 -> {
                ObjectNode body = NODES.objectNode();
                body.put("query", words(r, 1 + r.nextInt(3)));
                if (r.nextInt(3) == 0) {
                    body.put("operator", "and");
                } else if (r.nextInt(2) == 0) {
                    body.set("minimum_should_match", msm(r));
                }
                yield leaf("match", pick(r, new String[] {"t", "t", "k", "l", "b"}), body);
            }
            case 11 -> leaf(r.nextBoolean() ? "match_phrase" : "match_phrase_prefix", "t",
                    NODES.textNode(words(r, 1 + r.nextInt(2))));
            case 12 -> {
                ObjectNode q = NODES.objectNode();
                ObjectNode body = q.putObject("multi_match");
                body.put("query", words(r, 1 + r.nextInt(2)));
                if (r.nextInt(4) > 0) {
                    ArrayNode fields = body.putArray("fields");
                    fields.add(pick(r, new String[] {"t", "t^2", "t*"}));
                    if (r.nextBoolean()) {
                        fields.add(pick(r, new String[] {"k", "t.raw", "o.k", "o.*", "l"}));
                    }
                }
                if (r.nextInt(3) == 0) {
                    body.put("type", pick(r, new String[] {"best_fields", "most_fields", "phrase", "phrase_prefix"}));
                }
                if (r.nextInt(3) == 0) {
                    body.put("operator", "and");
                } else if (r.nextInt(3) == 0) {
                    body.set("minimum_should_match", msm(r));
                }
                if (r.nextInt(3) == 0) {
                    body.put("lenient", true);
                }
                yield q;
            }
            case 13 -> {
                ObjectNode q = NODES.objectNode();
                String[] forms = {"quick OR dog", "t:fox AND NOT k:a", "k:(a OR b)", "l:[1 TO 4]", "fox -dog",
                    "t:qu*", "k:ab~1", "i:>=3", "_exists_:kw", "t:\"quick fox\"~2"};
                boolean simple = r.nextInt(3) == 0;
                ObjectNode body = q.putObject(simple ? "simple_query_string" : "query_string");
                body.put("query", pick(r, forms));
                if (simple || r.nextBoolean()) {
                    body.putArray("fields").add("t").add("k");
                }
                if (r.nextInt(3) == 0) {
                    body.put("default_operator", "and");
                }
                yield q;
            }
            case 14 -> r.nextBoolean() ? leaf("match_all", "boost", NODES.numberNode(1))
                    : leaf("match_none", "boost", NODES.numberNode(1));
            case 15 -> {
                ObjectNode q = NODES.objectNode();
                q.putObject("constant_score").set("filter", query(r, depth + 1));
                yield q;
            }
            case 16 -> {
                ObjectNode q = NODES.objectNode();
                ObjectNode body = q.putObject("boosting");
                body.set("positive", query(r, depth + 1));
                body.set("negative", query(r, depth + 1));
                body.put("negative_boost", 0.5);
                yield q;
            }
            case 17 -> {
                ObjectNode q = NODES.objectNode();
                ArrayNode parts = q.putObject("dis_max").putArray("queries");
                for (int n = 1 + r.nextInt(3); n > 0; n--) {
                    parts.add(query(r, depth + 1));
                }
                yield q;
            }
            default -> bool(r, depth);
        };
    }

    private static ObjectNode bool(Random r, int depth) {
        ObjectNode q = NODES.objectNode();
        ObjectNode body = q.putObject("bool");
        for (String occur : List.of("must", "filter", "should", "must_not")) {
            int n = r.nextInt(occur.equals("should") ? 5 : 3);
            if (n == 0 && r.nextInt(3) > 0) {
                continue;
            }
            if (n == 1 && r.nextBoolean()) {
                body.set(occur, query(r, depth + 1));
                continue;
            }
            ArrayNode clauses = body.putArray(occur);
            for (int k = 0; k < n; k++) {
                clauses.add(query(r, depth + 1));
            }
        }
        if (r.nextInt(3) > 0) {
            body.set("minimum_should_match", msm(r));
        }
        return q;
    }

    private static JsonNode msm(Random r) {
        String form = pick(r, MSM);
        return form.startsWith("\"") ? NODES.textNode(form.substring(1, form.length() - 1))
                : NODES.numberNode(Integer.parseInt(form));
    }

    // ------------------------------------------------------------------------------------------------ evaluation

    /** The documents the predicate matches: boolean logic over its leaves, each leaf's matches read from Lucene. */
    static Set<String> evaluate(Predicate p, Set<String> all, Function<Query, Set<String>> leaf) {
        return switch (p) {
            case Predicate.Always a -> all;
            case Predicate.Never n -> Set.of();
            case Predicate.And a -> {
                Set<String> out = new TreeSet<>(all);
                a.parts().forEach(x -> out.retainAll(evaluate(x, all, leaf)));
                yield out;
            }
            case Predicate.Or o -> {
                Set<String> out = new TreeSet<>();
                o.parts().forEach(x -> out.addAll(evaluate(x, all, leaf)));
                yield out;
            }
            case Predicate.Not n -> {
                Set<String> out = new TreeSet<>(all);
                out.removeAll(evaluate(n.part(), all, leaf));
                yield out;
            }
            case Predicate.AtLeast l -> {
                Map<String, Integer> counts = new HashMap<>();
                l.parts().forEach(x -> evaluate(x, all, leaf).forEach(id -> counts.merge(id, 1, Integer::sum)));
                Set<String> out = new TreeSet<>();
                counts.forEach((id, c) -> {
                    if (c >= l.count()) {
                        out.add(id);
                    }
                });
                yield out;
            }
            case Predicate.Condition c -> leaf.apply(onField(c));
        };
    }

    /** A condition's query restricted to its field: a {@code multi_match} leaf is the query on that field alone. */
    private static Query onField(Predicate.Condition c) {
        if (c.leaf() instanceof Query.MultiMatch m) {
            List<Query.BoostedField> fields = c.field().equals("*") ? List.of() : m.fields().stream()
                    .filter(f -> f.field().equals(c.field())).limit(1).toList();
            return new Query.MultiMatch(fields, m.text(), m.type(), m.operator(), m.minimumShouldMatch(),
                    m.tieBreaker(), m.fuzziness(), m.slop(), m.lenient(), m.boost());
        }
        return c.leaf();
    }

    /**
     * One comparison with Lucene, named for the failure message: on an index, a query → the difference, or empty when
     * both sides agree or the query is not one to compare (Lucene refuses it).
     */
    record Check(String name, java.util.function.BiFunction<String, ObjectNode, Optional<String>> compare) {
        Optional<String> difference(String index, ObjectNode query) {
            return compare.apply(index, query);
        }
    }

    /** Queries Lucene answered, so compared, in the current run. */
    private static final AtomicInteger COMPARED = new AtomicInteger();

    private static Optional<Query> parse(ObjectNode query) {
        try {
            return Optional.of(QueryDsl.parse(Json.parse(query.toString())));
        } catch (GatewayException e) {
            return Optional.empty();
        }
    }

    /** Lucene's matches, or empty when Lucene refuses the query (both sides then have nothing to compare). */
    private static Optional<Set<String>> luceneMatches(String index, Query q) {
        try {
            return Optional.of(lucene.matches(index, q));
        } catch (GatewayException e) {
            return Optional.empty();
        }
    }

    private static final Check PREDICATE = new Check("the predicate", (index, json) -> {
        Optional<Query> q = parse(json);
        Optional<Set<String>> expected = q.flatMap(x -> luceneMatches(index, x));
        if (expected.isEmpty()) {
            return Optional.empty();
        }
        COMPARED.incrementAndGet();
        Set<String> all = lucene.matches(index, new Query.MatchAll(1f));
        Map<Query, Set<String>> leaves = new HashMap<>();
        Set<String> actual = evaluate(QueryNormalizer.predicate(q.get()), all,
                leaf -> leaves.computeIfAbsent(leaf, x -> lucene.matches(index, x)));
        return describe(expected.get(), actual, "predicate " + QueryNormalizer.predicate(q.get()));
    });

    private static final AtomicInteger QDRANT_ANSWERED = new AtomicInteger();
    private static final AtomicInteger QDRANT_REFUSED = new AtomicInteger();
    private static final Map<String, Integer> REFUSALS = new java.util.TreeMap<>();

    private static final Check QDRANT = new Check("the Qdrant store", (index, json) -> {
        Optional<Query> q = parse(json);
        Optional<Set<String>> expected = q.flatMap(x -> luceneMatches(index, x));
        if (expected.isEmpty()) {
            return Optional.empty();
        }
        COMPARED.incrementAndGet();
        Set<String> actual;
        long count;
        try {
            actual = qdrant.matches(index, q.get());
            count = qdrant.store().count(qdrant.index(index), q);
        } catch (GatewayException e) {
            if (e.kind().name().startsWith("BACKEND")) {
                return Optional.of("Qdrant failed with " + e.kind() + ": " + e.getMessage());
            }
            synchronized (REFUSALS) {
                REFUSALS.merge(e.getMessage().replaceAll("\\[[^]]*]", "[…]"), 1, Integer::sum);
            }
            QDRANT_REFUSED.incrementAndGet();
            return Optional.empty();
        }
        QDRANT_ANSWERED.incrementAndGet();
        if (count != actual.size()) {
            return Optional.of("Qdrant's count " + count + " but its scan " + actual.size() + " " + actual);
        }
        return describe(expected.get(), actual, "Qdrant");
    });

    private static Optional<String> describe(Set<String> expected, Set<String> actual, String what) {
        if (expected.equals(actual)) {
            return Optional.empty();
        }
        Set<String> missing = new TreeSet<>(expected);
        missing.removeAll(actual);
        Set<String> extra = new TreeSet<>(actual);
        extra.removeAll(expected);
        return Optional.of(what + ": Lucene matches " + expected + "; not matched " + missing + ", matched beyond "
                + extra);
    }

    // ------------------------------------------------------------------------------------------------ the properties

    @Test
    void thePredicateMatchesWhatLuceneMatches() {
        int compared = run(PREDICATE);
        System.out.println("[predicate] " + compared + " of " + QUERIES + " queries compared (seed " + SEED + ")");
        assertThat(compared).as("queries compared").isGreaterThan(QUERIES * 3 / 4);
    }

    @Test
    void theQdrantStoreMatchesWhatLuceneMatchesOrRefuses() {
        QDRANT_ANSWERED.set(0);
        QDRANT_REFUSED.set(0);
        int compared = run(QDRANT);
        assertThat(compared).as("queries compared").isGreaterThan(QUERIES * 3 / 4);
        System.out.println("[predicate] Qdrant answered " + QDRANT_ANSWERED.get() + ", refused " + QDRANT_REFUSED.get()
                + ": " + REFUSALS);
        assertThat(fake.violations).isEmpty();
        assertThat(QDRANT_ANSWERED.get()).as("answered (refused %s: %s)", QDRANT_REFUSED.get(), REFUSALS)
                .isGreaterThan(QUERIES / 2);
    }

    /** Runs every generated query through {@code check}; fails with the shrunk query and document of the first. */
    private static int run(Check check) {
        COMPARED.set(0);
        for (ObjectNode query : GENERATED) {
            Optional<String> difference = check.difference("corpus", query);
            if (difference.isPresent()) {
                throw new AssertionError(shrink(check, query, difference.get()));
            }
        }
        return COMPARED.get();
    }

    // ------------------------------------------------------------------------------------------------ shrinking

    private static final AtomicInteger SHRINK_INDEXES = new AtomicInteger();

    private static String shrink(Check check, ObjectNode original, String firstDifference) {
        ObjectNode query = original;
        String difference = firstDifference;
        boolean smaller = true;
        while (smaller) {
            smaller = false;
            for (ObjectNode candidate : smaller(query)) {
                if (candidate.toString().length() >= query.toString().length()) {
                    continue;
                }
                Optional<String> d = check.difference("corpus", candidate);
                if (d.isPresent()) {
                    query = candidate;
                    difference = d.get();
                    smaller = true;
                    break;
                }
            }
        }
        // the smallest document: one of the corpus documents the sides disagree on, reduced while it still shows it
        StringBuilder report = new StringBuilder(check.name() + " and Lucene disagree (seed " + SEED + ")\n  query: "
                + query + "\n  " + difference + "\n  original query: " + original);
        String differing = difference.substring(Math.max(0, difference.indexOf("; not matched")));
        for (String id : CORPUS.keySet()) {
            if (differing.contains(id + ",") || differing.contains(id + "]")) {
                Optional<ObjectNode> document = shrinkDocument(check, query, id);
                if (document.isPresent()) {
                    report.append("\n  document: ").append(document.get()).append("\n  (the corpus document ")
                            .append(id).append(": ").append(Json.write(CORPUS.get(id))).append(")");
                    break;
                }
            }
        }
        return report.toString();
    }

    /** Indexes {@code document} alone (on both sides) and checks whether the query still shows a difference. */
    private static boolean showsAlone(Check check, ObjectNode query, ObjectNode document) {
        String index = "alone" + SHRINK_INDEXES.incrementAndGet();
        Map<String, JsonObject> one = Map.of("x", (JsonObject) Json.parse(document.toString()));
        lucene.create(index, one);
        qdrant.create(index, one);
        return check.difference(index, query).isPresent();
    }

    private static Optional<ObjectNode> shrinkDocument(Check check, ObjectNode query, String id) {
        ObjectNode document;
        try {
            document = (ObjectNode) MAPPER.readTree(Json.write(CORPUS.get(id)));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        if (!showsAlone(check, query, document)) {
            return Optional.empty();
        }
        boolean smaller = true;
        while (smaller) {
            smaller = false;
            for (ObjectNode candidate : smallerDocuments(document)) {
                if (showsAlone(check, query, candidate)) {
                    document = candidate;
                    smaller = true;
                    break;
                }
            }
        }
        return Optional.of(document);
    }

    private static List<ObjectNode> smallerDocuments(ObjectNode document) {
        List<ObjectNode> out = new ArrayList<>();
        for (Iterator<String> names = document.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            ObjectNode without = document.deepCopy();
            without.remove(name);
            out.add(without);
            if (document.get(name) instanceof ArrayNode array && array.size() > 1) {
                for (int i = 0; i < array.size(); i++) {
                    ObjectNode fewer = document.deepCopy();
                    ((ArrayNode) fewer.get(name)).remove(i);
                    out.add(fewer);
                }
            }
        }
        return out;
    }

    /** Queries one step smaller than {@code q}: a part instead of a compound, a clause dropped, a leaf replaced. */
    static List<ObjectNode> smaller(ObjectNode q) {
        List<ObjectNode> out = new ArrayList<>();
        String kind = q.fieldNames().next();
        JsonNode body = q.get(kind);
        switch (kind) {
            case "bool" -> {
                for (String occur : List.of("must", "filter", "should", "must_not")) {
                    JsonNode clauses = body.get(occur);
                    if (clauses == null) {
                        continue;
                    }
                    List<JsonNode> list = new ArrayList<>();
                    if (clauses.isArray()) {
                        clauses.forEach(list::add);
                    } else {
                        list.add(clauses);
                    }
                    if (list.isEmpty()) {
                        ObjectNode without = q.deepCopy();
                        ((ObjectNode) without.get("bool")).remove(occur);
                        out.add(without);
                    }
                    for (int i = 0; i < list.size(); i++) {
                        out.add((ObjectNode) list.get(i));
                        ObjectNode dropped = q.deepCopy();
                        ArrayNode rest = ((ObjectNode) dropped.get("bool")).putArray(occur);
                        for (int k = 0; k < list.size(); k++) {
                            if (k != i) {
                                rest.add(list.get(k));
                            }
                        }
                        if (rest.isEmpty()) {
                            ((ObjectNode) dropped.get("bool")).remove(occur);
                        }
                        out.add(dropped);
                        for (ObjectNode part : smaller((ObjectNode) list.get(i))) {
                            ObjectNode replaced = q.deepCopy();
                            ArrayNode all = ((ObjectNode) replaced.get("bool")).putArray(occur);
                            for (int k = 0; k < list.size(); k++) {
                                all.add(k == i ? part : list.get(k));
                            }
                            out.add(replaced);
                        }
                    }
                }
                if (body.has("minimum_should_match")) {
                    ObjectNode without = q.deepCopy();
                    ((ObjectNode) without.get("bool")).remove("minimum_should_match");
                    out.add(without);
                    for (int simple : new int[] {0, 1, 2, -1}) {
                        ObjectNode simpler = q.deepCopy();
                        ((ObjectNode) simpler.get("bool")).put("minimum_should_match", simple);
                        out.add(simpler);
                    }
                }
            }
            case "dis_max" -> {
                ArrayNode parts = (ArrayNode) body.get("queries");
                for (int i = 0; i < parts.size(); i++) {
                    out.add((ObjectNode) parts.get(i));
                    ObjectNode dropped = q.deepCopy();
                    ((ArrayNode) dropped.get("dis_max").get("queries")).remove(i);
                    if (!dropped.get("dis_max").get("queries").isEmpty()) {
                        out.add(dropped);
                    }
                    for (ObjectNode part : smaller((ObjectNode) parts.get(i))) {
                        ObjectNode replaced = q.deepCopy();
                        ((ArrayNode) replaced.get("dis_max").get("queries")).set(i, part);
                        out.add(replaced);
                    }
                }
            }
            case "constant_score" -> {
                out.add((ObjectNode) body.get("filter"));
                for (ObjectNode part : smaller((ObjectNode) body.get("filter"))) {
                    ObjectNode replaced = q.deepCopy();
                    ((ObjectNode) replaced.get(kind)).set("filter", part);
                    out.add(replaced);
                }
            }
            case "boosting" -> {
                out.add((ObjectNode) body.get("positive"));
                for (String side : List.of("positive", "negative")) {
                    for (ObjectNode part : smaller((ObjectNode) body.get(side))) {
                        ObjectNode replaced = q.deepCopy();
                        ((ObjectNode) replaced.get(kind)).set(side, part);
                        out.add(replaced);
                    }
                }
            }
            case "match_all", "match_none" -> {
            }
            default -> {
                out.add(leaf("match_all", "boost", NODES.numberNode(1)));
                out.add(leaf("match_none", "boost", NODES.numberNode(1)));
            }
        }
        return out;
    }
}
