package io.qdrant.esgateway.compat.generator;

import static io.qdrant.esgateway.compat.generator.CorpusGenerator.F;
import static io.qdrant.esgateway.compat.generator.CorpusGenerator.pick;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

/**
 * Seeded, reproducible highlight searches: random trees of {@code bool} ({@code must}, {@code filter},
 * {@code should}, {@code must_not}, nested), {@code constant_score}, {@code dis_max} and {@code boosting} mixing
 * full-text clauses ({@code match}, {@code match_phrase}, {@code match_phrase_prefix}, {@code multi_match},
 * {@code query_string}, {@code simple_query_string}, {@code prefix}/{@code wildcard}/{@code regexp}/{@code fuzzy} on
 * text) with clauses on other fields ({@code term}, {@code terms}, {@code range}, {@code exists}, {@code ids},
 * {@code prefix}/{@code wildcard} on keywords, booleans, {@code match_all}), each with a {@code highlight} section
 * drawn from the options the gateway supports (tags, {@code tags_schema}, field names and patterns, fields as an
 * array, {@code number_of_fragments}, {@code fragment_size}, {@code no_match_size}, {@code order},
 * {@code require_field_match}, {@code encoder}, {@code type: unified}, per-field overrides). Hits are sorted by the
 * unique {@code sku} and carry no {@code _source}, so the answers differ only where the highlights do.
 *
 * <p>The corpus is {@link CorpusGenerator}'s with a multi-sentence text field {@code body} (sometimes an array,
 * sometimes missing) and a keyword sub-field {@code title.raw}.
 */
public final class HighlightGenerator {
    /** What a generated search exercises; used by the coverage test. */
    public enum Feature {
        MATCH, MATCH_PHRASE, MATCH_PHRASE_PREFIX, MULTI_MATCH, QUERY_STRING, SIMPLE_QUERY_STRING, TEXT_PATTERN, FUZZY,
        TERM, TERMS, RANGE, EXISTS, IDS, KEYWORD_PATTERN, BOOLEAN_TERM, MATCH_ALL,
        MUST, FILTER, SHOULD, MUST_NOT, NESTED_BOOL, CONSTANT_SCORE, DIS_MAX, BOOSTING,
        TAGS, TAGS_SCHEMA, FIELD_PATTERN, FIELDS_ARRAY, NUMBER_OF_FRAGMENTS, FRAGMENT_SIZE, NO_MATCH_SIZE, ORDER_SCORE,
        REQUIRE_FIELD_MATCH_FALSE, HTML_ENCODER, TYPE_UNIFIED, FIELD_OPTIONS
    }

    public record GeneratedSearch(String name, ObjectNode body, Set<Feature> features) {
    }

    static final List<String> PHRASE_WORDS = CorpusGenerator.WORDS;

    private HighlightGenerator() {
    }

    /** {@link CorpusGenerator}'s corpus with {@code body} and {@code title.raw}; index {@code hl-<seed>}. */
    public static CorpusGenerator.Corpus corpus(long seed, int size) {
        CorpusGenerator.Corpus base = CorpusGenerator.generate(seed, size);
        Random random = new Random(seed * 17 + 3);
        ObjectNode mappings = base.mappings().deepCopy();
        ObjectNode properties = (ObjectNode) mappings.get("properties");
        properties.putObject("title").put("type", "text").putObject("fields").putObject("raw").put("type", "keyword");
        properties.putObject("body").put("type", "text");
        List<CorpusGenerator.Doc> docs = new ArrayList<>();
        for (CorpusGenerator.Doc d : base.documents()) {
            ObjectNode source = d.source().deepCopy();
            int shape = random.nextInt(8);
            if (shape == 0) {
                source.remove("body");
            } else if (shape == 1) {
                source.putArray("body").add(sentences(random, 1)).add(sentences(random, 2));
            } else {
                source.put("body", sentences(random, 1 + random.nextInt(4)));
            }
            docs.add(new CorpusGenerator.Doc(d.id(), source));
        }
        return new CorpusGenerator.Corpus(seed, "hl-" + Long.toUnsignedString(seed), mappings, List.copyOf(docs));
    }

    private static String sentences(Random random, int n) {
        StringBuilder sb = new StringBuilder();
        for (int s = 0; s < n; s++) {
            if (s > 0) {
                sb.append(' ');
            }
            int words = 3 + random.nextInt(9);
            for (int w = 0; w < words; w++) {
                String word = CorpusGenerator.word(random);
                sb.append(w == 0 ? Character.toUpperCase(word.charAt(0)) + word.substring(1) : word);
                sb.append(w + 1 < words ? (random.nextInt(8) == 0 ? ", " : " ") : pick(random, List.of(".", "!", "?")));
            }
        }
        return sb.toString();
    }

    /**
     * {@code count} searches from {@code seed}. Without {@code expansions} no clause is one the Qdrant store refuses
     * (fuzzy and phrase prefix, whose expansions need the whole index's terms; wildcard and regexp).
     */
    public static List<GeneratedSearch> generate(long seed, CorpusGenerator.Corpus corpus, int count,
                                                 boolean expansions) {
        Random random = new Random(seed * 131 + 11);
        List<GeneratedSearch> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Set<Feature> features = EnumSet.noneOf(Feature.class);
            ObjectNode body = F.objectNode();
            body.set("query", compound(random, corpus, features, 0, expansions));
            body.set("highlight", highlight(random, features));
            body.put("_source", false);
            body.put("size", corpus.documents().size());
            body.putArray("sort").add("sku");
            out.add(new GeneratedSearch(String.format(Locale.ROOT, "highlight search %d of seed %d: %s", i + 1, seed,
                    features), body, features));
        }
        return out;
    }

    /** A compound (mostly {@code bool}) at the top, so text and other clauses meet in every occurrence. */
    private static JsonNode compound(Random random, CorpusGenerator.Corpus corpus, Set<Feature> features, int depth,
                                     boolean expansions) {
        int kind = depth == 0 ? random.nextInt(10) : random.nextInt(4);
        ObjectNode q = F.objectNode();
        switch (kind) {
            case 0 -> {
                features.add(Feature.CONSTANT_SCORE);
                q.putObject("constant_score").set("filter", clause(random, corpus, features, depth + 1, expansions));
            }
            case 1 -> {
                features.add(Feature.DIS_MAX);
                ArrayNode queries = q.putObject("dis_max").put("tie_breaker", 0.5).putArray("queries");
                queries.add(clause(random, corpus, features, depth + 1, expansions));
                queries.add(clause(random, corpus, features, depth + 1, expansions));
            }
            case 2 -> {
                features.add(Feature.BOOSTING);
                ObjectNode b = q.putObject("boosting");
                b.set("positive", clause(random, corpus, features, depth + 1, expansions));
                b.set("negative", clause(random, corpus, features, depth + 1, expansions));
                b.put("negative_boost", 0.5);
            }
            default -> {
                if (depth > 0) {
                    features.add(Feature.NESTED_BOOL);
                }
                ObjectNode bool = q.putObject("bool");
                // at least one positive clause; text in a random occurrence, other fields around it
                int positives = 0;
                for (String occur : List.of("must", "filter", "should", "must_not")) {
                    int n = random.nextInt(occur.equals("must_not") ? 2 : 3);
                    if (n == 0) {
                        continue;
                    }
                    features.add(Feature.valueOf(occur.toUpperCase(Locale.ROOT)));
                    ArrayNode clauses = bool.putArray(occur);
                    for (int c = 0; c < n; c++) {
                        clauses.add(clause(random, corpus, features, depth + 1, expansions));
                    }
                    if (!occur.equals("must_not")) {
                        positives += n;
                    }
                }
                if (positives == 0) {
                    features.add(Feature.MUST);
                    bool.putArray("must").add(text(random, corpus, features, expansions));
                }
            }
        }
        return q;
    }

    private static JsonNode clause(Random random, CorpusGenerator.Corpus corpus, Set<Feature> features, int depth,
                                   boolean expansions) {
        int r = random.nextInt(10);
        if (r < 2 && depth < 3) {
            return compound(random, corpus, features, depth, expansions);
        }
        return r < 6 ? text(random, corpus, features, expansions) : other(random, corpus, features, expansions);
    }

    /** A clause on the text fields: what gets highlighted. */
    private static JsonNode text(Random random, CorpusGenerator.Corpus corpus, Set<Feature> features,
                                 boolean expansions) {
        ObjectNode q = F.objectNode();
        String field = random.nextInt(3) == 0 ? "body" : "title";
        int kind = random.nextInt(expansions ? 11 : 9);
        switch (kind) {
            case 0, 1 -> {
                features.add(Feature.MATCH);
                String text = CorpusGenerator.word(random) + (random.nextBoolean() ? " " + CorpusGenerator.word(random)
                        : "");
                if (random.nextInt(4) == 0) {
                    q.putObject("match").putObject(field).put("query", text).put("operator", "and");
                } else {
                    q.putObject("match").put(field, text);
                }
            }
            case 2 -> {
                features.add(Feature.MATCH_PHRASE);
                q.putObject("match_phrase").put(field, phrase(random, corpus, field));
            }
            case 3 -> {
                features.add(Feature.MULTI_MATCH);
                ObjectNode mm = q.putObject("multi_match").put("query", CorpusGenerator.word(random) + " "
                        + CorpusGenerator.word(random));
                mm.putArray("fields").add("title^2").add("body");
                // cross_fields is refused by the gateway (a 400 naming it, docs/compatibility.md)
                String type = pick(random, List.of("best_fields", "most_fields", "phrase"));
                if (type.equals("phrase")) {
                    mm.put("query", phrase(random, corpus, random.nextBoolean() ? "title" : "body"));
                }
                mm.put("type", type);
            }
            case 4 -> {
                features.add(Feature.QUERY_STRING);
                q.putObject("query_string").put("query", field + ":" + CorpusGenerator.word(random).toLowerCase(
                        Locale.ROOT) + " OR " + pick(random, List.of("title", "body")) + ":"
                        + CorpusGenerator.word(random).toLowerCase(Locale.ROOT));
            }
            case 5 -> {
                features.add(Feature.SIMPLE_QUERY_STRING);
                ObjectNode s = q.putObject("simple_query_string").put("query", CorpusGenerator.word(random) + " | \""
                        + phrase(random, corpus, field) + "\"");
                s.putArray("fields").add(field);
            }
            case 6 -> {
                features.add(Feature.TEXT_PATTERN);
                String word = pick(random, PHRASE_WORDS);
                switch (random.nextInt(expansions ? 3 : 1)) {
                    case 0 -> q.putObject("prefix").put(field, word.substring(0, 2));
                    case 1 -> q.putObject("wildcard").put(field, word.charAt(0) + "*" + word.charAt(word.length() - 1));
                    default -> q.putObject("regexp").put(field, word.substring(0, 2) + ".*");
                }
            }
            case 7, 8 -> {
                features.add(Feature.MATCH);
                q.putObject("match").put(field, CorpusGenerator.word(random));
            }
            case 9 -> {
                features.add(Feature.FUZZY);
                String word = pick(random, PHRASE_WORDS);
                q.putObject("fuzzy").putObject(field).put("value", word.substring(1) + "x").put("fuzziness", "AUTO");
            }
            default -> {
                features.add(Feature.MATCH_PHRASE_PREFIX);
                String phrase = phrase(random, corpus, field);
                q.putObject("match_phrase_prefix").put(field, phrase.substring(0, phrase.length() - 1));
            }
        }
        return q;
    }

    /** Two adjacent words of a document's {@code field} (so the phrase matches), lower-cased. */
    private static String phrase(Random random, CorpusGenerator.Corpus corpus, String field) {
        for (int attempt = 0; attempt < 20; attempt++) {
            JsonNode value = pick(random, corpus.documents()).source().path(field);
            if (value.isArray() && !value.isEmpty()) {
                value = value.get(random.nextInt(value.size()));
            }
            String[] words = value.asText("").toLowerCase(Locale.ROOT).replaceAll("[^a-z ]", " ").trim()
                    .split(" +");
            if (words.length >= 2) {
                int at = random.nextInt(words.length - 1);
                return words[at] + " " + words[at + 1];
            }
        }
        return "quick brown";
    }

    /** A clause on the other fields: keywords, numbers, dates, booleans, ids. */
    private static JsonNode other(Random random, CorpusGenerator.Corpus corpus, Set<Feature> features,
                                  boolean expansions) {
        ObjectNode q = F.objectNode();
        switch (random.nextInt(10)) {
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
                q.putObject("terms").putArray("tags").add(pick(random, CorpusGenerator.TAGS))
                        .add(pick(random, CorpusGenerator.TAGS));
            }
            case 2 -> {
                features.add(Feature.RANGE);
                switch (random.nextInt(3)) {
                    case 0 -> q.putObject("range").putObject("price").put("gte", pick(random, CorpusGenerator.PRICES));
                    case 1 -> q.putObject("range").putObject("stock").put("lt", 1 + random.nextInt(9));
                    default -> q.putObject("range").putObject("released").put("gte", "2024-03-01")
                            .put("lte", "2024-10-31");
                }
            }
            case 3 -> {
                features.add(Feature.EXISTS);
                q.putObject("exists").put("field", pick(random, List.of("brand", "tags", "price", "stock", "body",
                        "in_stock", "released")));
            }
            case 4 -> {
                features.add(Feature.IDS);
                ArrayNode values = q.putObject("ids").putArray("values");
                for (int i = 0; i < 1 + random.nextInt(corpus.documents().size() / 2); i++) {
                    values.add(pick(random, corpus.documents()).id());
                }
            }
            case 5 -> {
                features.add(Feature.KEYWORD_PATTERN);
                if (!expansions || random.nextBoolean()) {
                    q.putObject("prefix").put("brand", pick(random, List.of("Ac", "G", "Um", "In")));
                } else {
                    q.putObject("wildcard").put("tags", pick(random, List.of("*e*", "r?d", "S*", "*co")));
                }
            }
            case 6 -> {
                features.add(Feature.BOOLEAN_TERM);
                q.putObject("term").put("in_stock", random.nextBoolean());
            }
            case 7 -> {
                features.add(Feature.MATCH_ALL);
                q.putObject("match_all");
            }
            case 8 -> {
                features.add(Feature.TERM);
                q.putObject("term").put("title.raw", pick(random, corpus.documents()).source().path("title")
                        .asText());
            }
            default -> {
                features.add(Feature.TERM);
                q.putObject("match").put("brand", pick(random, CorpusGenerator.BRANDS));
            }
        }
        return q;
    }

    private static ObjectNode highlight(Random random, Set<Feature> features) {
        ObjectNode h = F.objectNode();
        options(random, h, features, true);
        List<String> names = new ArrayList<>();
        switch (random.nextInt(7)) {
            case 0 -> names.add("title");
            case 1 -> names.add("body");
            case 2 -> {
                names.add("title");
                names.add("body");
            }
            case 3 -> {
                features.add(Feature.FIELD_PATTERN);
                names.add("*");
            }
            case 4 -> {
                features.add(Feature.FIELD_PATTERN);
                names.add(pick(random, List.of("t*", "b*", "title*", "*e")));
            }
            case 5 -> {
                names.add("body");
                names.add("title.raw");
                names.add("brand");
            }
            default -> {
                names.add("title");
                names.add("tags");
                names.add("sku");
            }
        }
        boolean asArray = random.nextInt(5) == 0;
        if (asArray) {
            features.add(Feature.FIELDS_ARRAY);
        }
        ArrayNode array = asArray ? h.putArray("fields") : null;
        ObjectNode object = asArray ? null : h.putObject("fields");
        for (String name : names) {
            ObjectNode field = F.objectNode();
            if (random.nextInt(3) == 0) {
                features.add(Feature.FIELD_OPTIONS);
                options(random, field, features, false);
            }
            if (asArray) {
                array.addObject().set(name, field);
            } else {
                object.set(name, field);
            }
        }
        return h;
    }

    private static void options(Random random, ObjectNode o, Set<Feature> features, boolean top) {
        if (random.nextInt(4) == 0) {
            features.add(Feature.TAGS);
            o.putArray("pre_tags").add(pick(random, List.of("<b>", "[", "<mark class=\"x\">")));
            o.putArray("post_tags").add(pick(random, List.of("</b>", "]", "</mark>")));
        } else if (top && random.nextInt(8) == 0) {
            features.add(Feature.TAGS_SCHEMA);
            o.put("tags_schema", "styled");
        }
        if (random.nextInt(3) == 0) {
            features.add(Feature.NUMBER_OF_FRAGMENTS);
            o.put("number_of_fragments", pick(random, List.of(0, 1, 2, 3)));
        }
        if (random.nextInt(3) == 0) {
            features.add(Feature.FRAGMENT_SIZE);
            o.put("fragment_size", pick(random, List.of(10, 20, 35, 60)));
        }
        if (random.nextInt(6) == 0) {
            features.add(Feature.NO_MATCH_SIZE);
            o.put("no_match_size", pick(random, List.of(5, 15, 40)));
        }
        if (random.nextInt(6) == 0) {
            features.add(Feature.ORDER_SCORE);
            o.put("order", "score");
        }
        if (random.nextInt(4) == 0) {
            features.add(Feature.REQUIRE_FIELD_MATCH_FALSE);
            o.put("require_field_match", false);
        }
        if (random.nextInt(8) == 0) {
            features.add(Feature.HTML_ENCODER);
            o.put("encoder", "html");
        }
        if (random.nextInt(8) == 0) {
            features.add(Feature.TYPE_UNIFIED);
            o.put("type", "unified");
        }
    }
}
