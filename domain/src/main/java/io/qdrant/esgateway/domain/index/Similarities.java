package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The index's named similarities ({@code index.similarity.{name}.*}), as Elasticsearch 8.15 defines them: type
 * {@code BM25} ({@code k1}, {@code b}, {@code discount_overlaps}) or {@code boolean}. A field's {@code similarity}
 * names one of them or a built-in ({@code BM25}, {@code boolean}); the one named {@code default} replaces BM25 for
 * the fields that name none. The other ES types (DFR, IB, LM*, scripted) are refused by name.
 *
 * @param named the definitions by name, each with the settings as given (rendered back as strings)
 */
public record Similarities(SortedMap<String, Definition> named) {
    public static final String PREFIX = "index.similarity.";
    public static final Similarities NONE = new Similarities(new TreeMap<>());
    /** The similarity fields get when neither they nor the index name one: Elasticsearch's BM25. */
    public static final Definition BM25 = new Definition("BM25", 1.2f, 0.75f, new TreeMap<>());
    /** The built-in {@code boolean} similarity: a matching term scores the query's boost. */
    public static final Definition BOOLEAN = new Definition("boolean", 0f, 0f, new TreeMap<>());

    private static final Set<String> UNSUPPORTED_TYPES = Set.of("DFR", "IB", "LMDirichlet", "LMJelinekMercer",
            "scripted");

    public Similarities {
        named = Collections.unmodifiableSortedMap(new TreeMap<>(named));
    }

    /**
     * One similarity: its type ({@code BM25} or {@code boolean}), BM25's {@code k1} and {@code b}, and the settings
     * as given (without {@code type}).
     */
    public record Definition(String type, float k1, float b, SortedMap<String, String> given) {
        public Definition {
            given = Collections.unmodifiableSortedMap(new TreeMap<>(given));
        }

        public boolean isBoolean() {
            return type.equals("boolean");
        }

        /** What decides scores: equal keys score alike whatever the name or the spelling of the settings. */
        public String scoringKey() {
            return isBoolean() ? "boolean" : "BM25:" + k1 + ":" + b;
        }
    }

    public boolean isEmpty() {
        return named.isEmpty();
    }

    /** Whether a field may name {@code name}: defined here or built in. */
    public boolean has(String name) {
        return named.containsKey(name) || name.equals("BM25") || name.equals("boolean");
    }

    /** The similarity of a field that names {@code fieldSimilarity} (empty: the index's default). */
    public Definition resolve(Optional<String> fieldSimilarity) {
        String name = fieldSimilarity.orElse("default");
        Definition d = named.get(name);
        if (d != null) {
            return d;
        }
        return name.equals("boolean") ? BOOLEAN : BM25;
    }

    /** Reads the flat {@code index.similarity.*} settings with Elasticsearch's checks and messages. */
    static Similarities parseFlat(Map<String, JsonValue> flat) {
        Map<String, SortedMap<String, String>> byName = new TreeMap<>();
        for (Map.Entry<String, JsonValue> e : flat.entrySet()) {
            String rest = e.getKey().substring(PREFIX.length());
            int dot = rest.indexOf('.');
            if (dot <= 0 || dot == rest.length() - 1) {
                throw GatewayException.illegalArgument("unknown setting [" + e.getKey() + "] please check that any"
                        + " required plugins are installed, or check the breaking changes documentation for removed"
                        + " settings");
            }
            JsonValue value = e.getValue();
            String text = value instanceof JsonValue.JsonArray ? null : JsonReads.text(value).orElse(null);
            if (text == null) {
                throw GatewayException.illegalArgument("Failed to parse value [" + value.tokenName()
                        + "] for setting [" + e.getKey() + "]");
            }
            byName.computeIfAbsent(rest.substring(0, dot), k -> new TreeMap<>()).put(rest.substring(dot + 1), text);
        }
        SortedMap<String, Definition> out = new TreeMap<>();
        byName.forEach((name, settings) -> out.put(name, definition(name, settings)));
        return new Similarities(out);
    }

    private static Definition definition(String name, SortedMap<String, String> settings) {
        if (name.equals("BM25") || name.equals("boolean")) {
            throw GatewayException.illegalArgument("illegal value for [" + PREFIX + name + "] cannot redefine"
                    + " built-in similarity");
        }
        SortedMap<String, String> params = new TreeMap<>(settings);
        String type = params.remove("type");
        if (type == null) {
            throw GatewayException.illegalArgument("Similarity [" + name + "] must have an associated type");
        }
        if (UNSUPPORTED_TYPES.contains(type)) {
            throw GatewayException.unsupported("similarity type [" + type + "] of similarity [" + name + "]");
        }
        switch (type) {
            case "BM25" -> {
                onlyKnown("BM25", params, List.of("k1", "b", "discount_overlaps"));
                float k1 = floatSetting(params, "k1", 1.2f);
                float b = floatSetting(params, "b", 0.75f);
                if (!Float.isFinite(k1) || k1 < 0) {
                    throw GatewayException.illegalArgument("illegal k1 value: " + k1
                            + ", must be a non-negative finite value");
                }
                if (Float.isNaN(b) || b < 0 || b > 1) {
                    throw GatewayException.illegalArgument("illegal b value: " + b + ", must be between 0 and 1");
                }
                String overlaps = params.getOrDefault("discount_overlaps", "true");
                switch (overlaps) {
                    case "true" -> {
                    }
                    case "false" -> throw GatewayException.unsupported("[discount_overlaps: false] in similarity ["
                            + name + "]");
                    default -> throw GatewayException.illegalArgument("Failed to parse value [" + overlaps
                            + "] as only [true] or [false] are allowed.");
                }
                return new Definition(type, k1, b, params);
            }
            case "boolean" -> {
                onlyKnown("boolean", params, List.of());
                return new Definition(type, 0f, 0f, params);
            }
            default -> throw GatewayException.illegalArgument("Unknown Similarity type [" + type + "] for [" + name
                    + "]");
        }
    }

    private static void onlyKnown(String type, Map<String, String> params, List<String> known) {
        Set<String> unknown = new java.util.TreeSet<>(params.keySet());
        known.forEach(unknown::remove);
        if (!unknown.isEmpty()) {
            throw GatewayException.illegalArgument("Unknown settings for similarity of type [" + type + "]: "
                    + unknown);
        }
    }

    private static float floatSetting(Map<String, String> params, String key, float defaultValue) {
        String text = params.get(key);
        if (text == null) {
            return defaultValue;
        }
        try {
            return Float.parseFloat(text);
        } catch (NumberFormatException e) {
            throw GatewayException.illegalArgument("Failed to parse float setting [" + key + "] with value [" + text
                    + "]");
        }
    }

    /** The flat {@code index.similarity.*} keys as given, for persistence and {@code GET _settings}. */
    void toFlatMap(Map<String, String> out) {
        named.forEach((name, d) -> {
            out.put(PREFIX + name + ".type", d.type());
            d.given().forEach((k, v) -> out.put(PREFIX + name + "." + k, v));
        });
    }

    /** Every similarity the mapping's fields name exists: ES's error for the first that does not. */
    static void check(String prefix, SortedMap<String, FieldMapping> fields, Similarities similarities) {
        fields.forEach((name, mapping) -> {
            String path = prefix + name;
            switch (mapping) {
                case FieldMapping.TextField t -> {
                    t.similarity().ifPresent(s -> requireKnown(path, s, similarities));
                    check(path + ".", t.fields(), similarities);
                }
                case FieldMapping.KeywordField k -> {
                    k.similarity().ifPresent(s -> requireKnown(path, s, similarities));
                    check(path + ".", k.fields(), similarities);
                }
                case FieldMapping.ObjectField o -> check(path + ".", o.properties(), similarities);
                default -> {
                }
            }
        });
    }

    private static void requireKnown(String field, String name, Similarities similarities) {
        if (!similarities.has(name)) {
            throw GatewayException.mappingFailed("Unknown Similarity type [" + name + "] for field [" + field + "]");
        }
    }
}
