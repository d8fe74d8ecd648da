package io.qdrant.esgateway.compat.generator;

import static io.qdrant.esgateway.compat.generator.CorpusGenerator.F;
import static io.qdrant.esgateway.compat.generator.CorpusGenerator.pick;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Seeded, reproducible {@code _search} bodies over a {@link CorpusGenerator.Corpus}: queries built from term, terms,
 * range, match and bool clauses (values drawn from the corpus, so they hit), sorts that always end with the unique
 * {@code sku} as tiebreaker (so every engine must agree on the order), {@code from}/{@code size} pagination, and
 * terms/min/max/avg aggregations. Extend it by adding a {@link Feature} and its branch; the coverage test then asks
 * for it.
 */
public final class QueryGenerator {
    /** What a generated query exercises; used by the coverage test. */
    public enum Feature {
        TERM, TERMS, RANGE, MATCH, BOOL, MATCH_ALL, SORT, PAGINATION, TERMS_AGG, METRIC_AGG
    }

    public record GeneratedQuery(String name, ObjectNode body, Set<Feature> features) {
    }

    private QueryGenerator() {
    }

    public static List<GeneratedQuery> generate(long seed, CorpusGenerator.Corpus corpus, int count) {
        Random random = new Random(seed * 31 + 7);
        List<GeneratedQuery> queries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Set<Feature> features = EnumSet.noneOf(Feature.class);
            ObjectNode body = F.objectNode();
            body.set("query", clause(random, corpus, features, 0));
            body.put("track_total_hits", true);
            if (random.nextInt(3) > 0) {
                sort(random, body);
                features.add(Feature.SORT);
            } else {
                // score order; ties broken by sku would need a sort, so compare only the first page's ids
                body.putArray("sort").add(F.objectNode().put("_score", "desc")).add(F.objectNode().put("sku", "asc"));
                features.add(Feature.SORT);
            }
            if (random.nextBoolean()) {
                body.put("from", random.nextInt(6));
                body.put("size", 1 + random.nextInt(8));
                features.add(Feature.PAGINATION);
            }
            if (random.nextInt(3) == 0) {
                aggregations(random, body, features);
            }
            queries.add(new GeneratedQuery(String.format(java.util.Locale.ROOT, "query %d of seed %d: %s", i + 1,
                    seed, features), body, features));
        }
        return queries;
    }

    private static JsonNode clause(Random random, CorpusGenerator.Corpus corpus, Set<Feature> features, int depth) {
        int kind = random.nextInt(depth == 0 ? 6 : 5);
        ObjectNode q = F.objectNode();
        switch (kind) {
            case 0 -> {
                features.add(Feature.TERM);
                if (random.nextBoolean()) {
                    q.putObject("term").put("brand", pick(random, CorpusGenerator.BRANDS));
                } else {
                    q.putObject("term").put("tags", pick(random, CorpusGenerator.TAGS));
                }
            }
            case 1 -> {
                features.add(Feature.TERMS);
                ArrayNode values = q.putObject("terms").putArray("tags");
                values.add(pick(random, CorpusGenerator.TAGS)).add(pick(random, CorpusGenerator.TAGS));
            }
            case 2 -> {
                features.add(Feature.RANGE);
                if (random.nextBoolean()) {
                    q.putObject("range").putObject("price").put("gte", pick(random, CorpusGenerator.PRICES))
                            .put("lt", 200);
                } else {
                    q.putObject("range").putObject("released").put("gte", "2024-03-01").put("lte", "2024-09-30");
                }
            }
            case 3 -> {
                features.add(Feature.MATCH);
                q.putObject("match").put("title", CorpusGenerator.word(random));
            }
            case 4 -> {
                features.add(Feature.MATCH_ALL);
                q.putObject("match_all");
            }
            default -> {
                features.add(Feature.BOOL);
                ObjectNode bool = q.putObject("bool");
                bool.putArray("must").add(clause(random, corpus, features, depth + 1));
                bool.putArray("filter").add(clause(random, corpus, features, depth + 1));
                if (random.nextBoolean()) {
                    bool.putArray("must_not").add(clause(random, corpus, features, depth + 1));
                }
                if (random.nextBoolean()) {
                    bool.putArray("should").add(clause(random, corpus, features, depth + 1));
                }
            }
        }
        return q;
    }

    private static void sort(Random random, ObjectNode body) {
        ArrayNode sort = body.putArray("sort");
        String field = pick(random, List.of("price", "stock", "released", "brand"));
        sort.add(F.objectNode().put(field, random.nextBoolean() ? "asc" : "desc"));
        sort.add(F.objectNode().put("sku", "asc"));
    }

    private static void aggregations(Random random, ObjectNode body, Set<Feature> features) {
        ObjectNode aggs = body.putObject("aggs");
        if (random.nextBoolean()) {
            features.add(Feature.TERMS_AGG);
            aggs.putObject("by_brand").putObject("terms").put("field", random.nextBoolean() ? "brand" : "tags")
                    .put("size", 10);
        }
        features.add(Feature.METRIC_AGG);
        String metric = pick(random, List.of("min", "max", "avg"));
        aggs.putObject(metric + "_price").putObject(metric).put("field", "price");
    }
}
