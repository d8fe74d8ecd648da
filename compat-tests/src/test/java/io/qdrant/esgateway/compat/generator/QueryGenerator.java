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
 * range, match, match_all, exists, ids, prefix, wildcard, fuzzy, match_phrase, multi_match, query_string,
 * simple_query_string, constant_score, dis_max and bool clauses (values drawn from the corpus, so they hit), sorts
 * that always end with the unique {@code sku} as tiebreaker (so every engine must agree on the order; with
 * {@code missing: _first} and min/max {@code mode} on multi-valued fields), {@code from}/{@code size} pagination,
 * {@code search_after}, {@code track_total_hits} thresholds, {@code _source} filtering, and terms/min/max/avg
 * aggregations with a range, histogram, date_histogram or composite aggregation beside them. Extend it by adding a
 * {@link Feature} and its branch; the coverage test then asks for it.
 */
public final class QueryGenerator {
    /** What a generated query exercises; used by the coverage test. */
    public enum Feature {
        TERM, TERMS, RANGE, MATCH, BOOL, MATCH_ALL, SORT, PAGINATION, TERMS_AGG, METRIC_AGG,
        EXISTS, IDS, PREFIX, WILDCARD, FUZZY, MATCH_PHRASE, MULTI_MATCH, QUERY_STRING, SIMPLE_QUERY_STRING,
        CONSTANT_SCORE, DIS_MAX, MISSING_FIRST, SORT_MODE, SEARCH_AFTER, TOTAL_THRESHOLD, SOURCE_FILTER, BUCKET_AGG
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
                sort(random, body, features);
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
            if (!body.has("from") && random.nextInt(5) == 0) {
                // search_after: continue after a plausible position in the sort (values of the first sort key)
                searchAfter(random, body);
                features.add(Feature.SEARCH_AFTER);
            }
            if (random.nextInt(6) == 0) {
                body.put("track_total_hits", 1 + random.nextInt(5));
                features.add(Feature.TOTAL_THRESHOLD);
            }
            if (random.nextInt(5) == 0) {
                ArrayNode includes = body.putObject("_source").putArray("includes");
                includes.add(pick(random, List.of("title", "brand", "t*", "price")));
                body.with("_source").putArray("excludes").add("tags");
                features.add(Feature.SOURCE_FILTER);
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
        int kind = random.nextInt(17);
        if (depth > 0 && kind == 5) {
            kind = 4; // bool only at the top, so the nesting stays shallow
        }
        if (kind >= 6) {
            return moreClauses(random, features, kind, depth);
        }
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
            case 5 -> {
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

    /** The other query types: presence, ids, patterns, phrases, several fields, query strings, wrappers. */
    private static JsonNode moreClauses(Random random, Set<Feature> features, int kind, int depth) {
        ObjectNode q = F.objectNode();
        switch (kind) {
            case 6 -> {
                features.add(Feature.EXISTS);
                q.putObject("exists").put("field", pick(random, List.of("brand", "tags", "price", "stock",
                        "released", "in_stock")));
            }
            case 7 -> {
                features.add(Feature.IDS);
                q.putObject("ids").putArray("values").add(String.valueOf(1 + random.nextInt(20)))
                        .add(String.valueOf(1 + random.nextInt(40))).add("no-such-id");
            }
            case 8 -> {
                features.add(Feature.PREFIX);
                q.putObject("prefix").put("brand", pick(random, List.of("Ac", "ac", "G", "Um")));
            }
            case 9 -> {
                features.add(Feature.WILDCARD);
                q.putObject("wildcard").put("tags", pick(random, List.of("*e*", "r?d", "S*", "*co")));
            }
            case 10 -> {
                features.add(Feature.FUZZY);
                q.putObject("fuzzy").put("tags", pick(random, List.of("gren", "bleu", "nwe", "eco")));
            }
            case 11 -> {
                features.add(Feature.MATCH_PHRASE);
                q.putObject("match_phrase").put("title", CorpusGenerator.word(random) + " "
                        + CorpusGenerator.word(random));
            }
            case 12 -> {
                features.add(Feature.MULTI_MATCH);
                ObjectNode mm = q.putObject("multi_match").put("query", CorpusGenerator.word(random));
                mm.putArray("fields").add("title^2").add("brand");
                if (random.nextBoolean()) {
                    mm.put("type", "most_fields");
                }
            }
            case 13 -> {
                features.add(Feature.QUERY_STRING);
                q.putObject("query_string").put("query", "title:" + CorpusGenerator.word(random) + " OR tags:"
                        + pick(random, CorpusGenerator.TAGS));
            }
            case 14 -> {
                features.add(Feature.SIMPLE_QUERY_STRING);
                q.putObject("simple_query_string").put("query", CorpusGenerator.word(random) + " | "
                        + CorpusGenerator.word(random)).putArray("fields").add("title");
            }
            case 15 -> {
                features.add(Feature.CONSTANT_SCORE);
                q.putObject("constant_score").put("boost", 2).putObject("filter").putObject("term")
                        .put("tags", pick(random, CorpusGenerator.TAGS));
            }
            default -> {
                features.add(Feature.DIS_MAX);
                ObjectNode dm = q.putObject("dis_max").put("tie_breaker", 0.3);
                dm.putArray("queries").add(F.objectNode().set("match", F.objectNode().put("title",
                        CorpusGenerator.word(random)))).add(F.objectNode().set("term", F.objectNode().put("tags",
                        pick(random, CorpusGenerator.TAGS))));
            }
        }
        return q;
    }

    private static void sort(Random random, ObjectNode body, Set<Feature> features) {
        ArrayNode sort = body.putArray("sort");
        String field = pick(random, List.of("price", "stock", "released", "brand", "tags"));
        String order = random.nextBoolean() ? "asc" : "desc";
        int shape = random.nextInt(4);
        if (shape == 0) {
            sort.add(F.objectNode().set(field, F.objectNode().put("order", order).put("missing", "_first")));
            features.add(Feature.MISSING_FIRST);
        } else if (shape == 1 && !field.equals("released")) {
            sort.add(F.objectNode().set(field, F.objectNode().put("order", order)
                    .put("mode", random.nextBoolean() ? "min" : "max")));
            features.add(Feature.SORT_MODE);
        } else {
            sort.add(F.objectNode().put(field, order));
        }
        sort.add(F.objectNode().put("sku", "asc"));
    }

    private static void searchAfter(Random random, ObjectNode body) {
        ObjectNode first = (ObjectNode) body.path("sort").get(0);
        String field = first.fieldNames().next();
        ArrayNode after = body.putArray("search_after");
        switch (field) {
            case "_score" -> after.add(0.5);
            case "price" -> after.add(pick(random, CorpusGenerator.PRICES));
            case "stock" -> after.add(random.nextInt(50));
            case "released" -> after.add(1_717_200_000_000L);
            default -> after.add(pick(random, CorpusGenerator.BRANDS));
        }
        after.add(String.format(java.util.Locale.ROOT, "SKU-%05d", 1 + random.nextInt(20)));
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
        bucketAggregation(aggs, Math.floorMod(body.toString().hashCode(), 4), features);
    }

    /**
     * A range, histogram, date_histogram or composite aggregation with a sub-aggregation, chosen by {@code kind}
     * (derived from the body, not drawn from the generator's random stream, so the other generated queries stay as
     * they were).
     */
    private static void bucketAggregation(ObjectNode aggs, int kind, Set<Feature> features) {
        features.add(Feature.BUCKET_AGG);
        ObjectNode agg = aggs.putObject("buckets");
        switch (kind) {
            case 0 -> {
                ObjectNode h = agg.putObject("histogram").put("field", "price").put("interval", 25);
                h.put("offset", 5);
                agg.putObject("aggs").putObject("max_stock").putObject("max").put("field", "stock");
            }
            case 1 -> {
                ArrayNode ranges = agg.putObject("range").put("field", "stock").putArray("ranges");
                ranges.addObject().put("to", 3);
                ranges.addObject().put("from", 3).put("to", 7);
                ranges.addObject().put("from", 5);
                agg.putObject("aggs").putObject("brands").putObject("terms").put("field", "brand");
            }
            case 2 -> {
                agg.putObject("date_histogram").put("field", "released").put("calendar_interval", "month")
                        .put("time_zone", "Europe/Berlin");
                agg.putObject("aggs").putObject("stock").putObject("histogram").put("field", "stock")
                        .put("interval", 4);
            }
            default -> {
                ArrayNode sources = agg.putObject("composite").put("size", 7).putArray("sources");
                sources.addObject().putObject("brand").putObject("terms").put("field", "brand")
                        .put("missing_bucket", true);
                sources.addObject().putObject("in_stock").putObject("terms").put("field", "in_stock")
                        .put("order", "desc");
                agg.putObject("aggs").putObject("avg_price").putObject("avg").put("field", "price");
            }
        }
    }
}
