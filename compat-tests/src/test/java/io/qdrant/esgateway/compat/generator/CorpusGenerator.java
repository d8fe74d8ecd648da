package io.qdrant.esgateway.compat.generator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * A seeded, reproducible corpus of product-like documents: the same seed and size give the same mappings and the same
 * documents, byte for byte. Every corpus contains each {@link EdgeCase} (forced into the first documents, which are
 * then shuffled into random positions), the rest is random.
 *
 * <p>Fields: {@code sku} (keyword, unique: the sort tiebreaker), {@code title} (text, mixed-case words),
 * {@code brand} (keyword, few values that differ only by case), {@code tags} (keyword, single values, arrays, empty
 * arrays), {@code price} (double, few distinct values), {@code stock} (integer, sometimes an array),
 * {@code released} (date), {@code in_stock} (boolean). Any field but {@code sku} and {@code title} may be missing or
 * {@code null}. Extend it by adding fields here and in {@link #mappings()}, and the matching clauses to
 * {@link QueryGenerator}.
 */
public final class CorpusGenerator {
    static final JsonNodeFactory F = JsonNodeFactory.instance;
    static final List<String> WORDS = List.of("quick", "brown", "fox", "lazy", "dog", "red", "kettle", "search",
            "gateway", "lucene", "vector", "garden", "river", "stone", "paper", "light");
    static final List<String> BRANDS = List.of("Acme", "acme", "ACME", "Globex", "Initech", "Umbrella");
    static final List<String> TAGS = List.of("red", "green", "blue", "Sale", "new", "eco");
    static final List<Double> PRICES = List.of(0.0, 4.5, 9.99, 19.5, 19.5, 100.0, 250.25);

    /** The corner cases of document data that every generated corpus contains. */
    public enum EdgeCase {
        NULL_VALUE, MISSING_FIELD, ARRAY_VALUE, EMPTY_ARRAY, MIXED_CASE_TEXT, EQUAL_SORT_VALUES
    }

    /** A document with its id. */
    public record Doc(String id, ObjectNode source) {
    }

    public record Corpus(long seed, String index, ObjectNode mappings, List<Doc> documents) {
        /** The edge cases present in the documents (computed from the data, not from the generator's intent). */
        public Set<EdgeCase> edgeCases() {
            Set<EdgeCase> found = EnumSet.noneOf(EdgeCase.class);
            Map<String, Integer> priceCounts = new HashMap<>();
            for (Doc d : documents) {
                ObjectNode s = d.source();
                for (String field : List.of("brand", "tags", "price", "stock", "released", "in_stock")) {
                    JsonNode v = s.get(field);
                    if (v == null) {
                        found.add(EdgeCase.MISSING_FIELD);
                    } else if (v.isNull()) {
                        found.add(EdgeCase.NULL_VALUE);
                    } else if (v.isArray()) {
                        found.add(v.isEmpty() ? EdgeCase.EMPTY_ARRAY : EdgeCase.ARRAY_VALUE);
                    }
                }
                String title = s.path("title").asText();
                if (!title.equals(title.toLowerCase(Locale.ROOT)) && !title.equals(title.toUpperCase(Locale.ROOT))) {
                    found.add(EdgeCase.MIXED_CASE_TEXT);
                }
                if (s.path("price").isNumber()) {
                    priceCounts.merge(s.get("price").asText(), 1, Integer::sum);
                }
            }
            if (priceCounts.values().stream().anyMatch(n -> n > 1)) {
                found.add(EdgeCase.EQUAL_SORT_VALUES);
            }
            return found;
        }

        /** The documents as a {@code _bulk} body: one index action and one source line each. */
        public List<JsonNode> bulkLines() {
            List<JsonNode> lines = new ArrayList<>();
            for (Doc d : documents) {
                ObjectNode action = F.objectNode();
                action.putObject("index").put("_id", d.id());
                lines.add(action);
                lines.add(d.source());
            }
            return lines;
        }
    }

    private CorpusGenerator() {
    }

    public static ObjectNode mappings() {
        ObjectNode m = F.objectNode();
        ObjectNode p = m.putObject("properties");
        p.putObject("sku").put("type", "keyword");
        p.putObject("title").put("type", "text");
        p.putObject("brand").put("type", "keyword");
        p.putObject("tags").put("type", "keyword");
        p.putObject("price").put("type", "double");
        p.putObject("stock").put("type", "integer");
        p.putObject("released").put("type", "date");
        p.putObject("in_stock").put("type", "boolean");
        return m;
    }

    public static Corpus generate(long seed, int size) {
        if (size < EdgeCase.values().length) {
            throw new IllegalArgumentException("a corpus needs at least " + EdgeCase.values().length + " documents");
        }
        Random random = new Random(seed);
        List<ObjectNode> sources = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            sources.add(randomSource(random));
        }
        // force every edge case into the first documents (they are shuffled below)
        sources.get(0).putNull("brand");
        sources.get(0).putNull("price");
        sources.get(0).put("title", "Mixed CASE Title " + word(random));
        sources.get(1).remove(List.of("brand", "price", "tags", "stock"));
        sources.get(2).set("tags", F.arrayNode().add("red").add("Sale").add("red"));
        sources.get(2).set("stock", F.arrayNode().add(3).add(7));
        sources.get(3).set("tags", F.arrayNode());
        sources.get(4).put("price", 19.5);
        sources.get(5).put("price", 19.5);
        Collections.shuffle(sources, random);
        List<Doc> docs = new ArrayList<>();
        for (int i = 0; i < sources.size(); i++) {
            String id = String.format(Locale.ROOT, "doc-%04d", i + 1);
            ObjectNode source = F.objectNode();
            source.put("sku", String.format(Locale.ROOT, "SKU-%05d", i + 1));
            source.setAll(sources.get(i));
            docs.add(new Doc(id, source));
        }
        return new Corpus(seed, "gen-" + Long.toUnsignedString(seed), mappings(), List.copyOf(docs));
    }

    private static ObjectNode randomSource(Random random) {
        ObjectNode s = F.objectNode();
        StringBuilder title = new StringBuilder();
        int words = 2 + random.nextInt(5);
        for (int w = 0; w < words; w++) {
            if (w > 0) {
                title.append(' ');
            }
            title.append(word(random));
        }
        s.put("title", title.toString());
        maybe(random, s, "brand", () -> s.put("brand", pick(random, BRANDS)));
        maybe(random, s, "tags", () -> {
            int n = random.nextInt(4);
            if (n == 1 && random.nextBoolean()) {
                s.put("tags", pick(random, TAGS));
            } else {
                ArrayNode tags = s.putArray("tags");
                for (int t = 0; t < n; t++) {
                    tags.add(pick(random, TAGS));
                }
            }
        });
        maybe(random, s, "price", () -> s.put("price", pick(random, PRICES)));
        maybe(random, s, "stock", () -> {
            if (random.nextInt(6) == 0) {
                s.putArray("stock").add(random.nextInt(10)).add(random.nextInt(10));
            } else {
                s.put("stock", random.nextInt(10));
            }
        });
        maybe(random, s, "released", () -> s.put("released",
                String.format(Locale.ROOT, "2024-%02d-%02d", 1 + random.nextInt(12), 1 + random.nextInt(28))));
        maybe(random, s, "in_stock", () -> s.put("in_stock", random.nextBoolean()));
        return s;
    }

    /** Mostly present; sometimes missing, sometimes {@code null}. */
    private static void maybe(Random random, ObjectNode s, String field, Runnable put) {
        int r = random.nextInt(10);
        if (r == 0) {
            return;
        }
        if (r == 1) {
            s.putNull(field);
            return;
        }
        put.run();
    }

    /** A vocabulary word in lower, Title or UPPER case. */
    static String word(Random random) {
        String w = pick(random, WORDS);
        return switch (random.nextInt(3)) {
            case 0 -> w;
            case 1 -> Character.toUpperCase(w.charAt(0)) + w.substring(1);
            default -> w.toUpperCase(Locale.ROOT);
        };
    }

    static <T> T pick(Random random, List<T> values) {
        return values.get(random.nextInt(values.size()));
    }
}
