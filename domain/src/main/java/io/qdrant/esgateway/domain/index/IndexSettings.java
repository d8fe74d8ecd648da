package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.analysis.AnalysisSettings;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The index settings the gateway accepts and echoes. Shards and replicas are echoed only: the gateway has no shards
 * of its own (the backend decides its layout), so they change nothing. {@code max_result_window} bounds
 * {@code from + size}; {@code refresh_interval} is echoed, every acknowledged write is already visible;
 * {@code requests.cache.enable} ({@code false}) keeps the index's {@code size: 0} answers out of the request cache.
 *
 * <p>Settings may arrive nested ({@code {"index":{"number_of_shards":1}}}), flat ({@code "index.number_of_shards"})
 * or without the {@code index.} prefix, as in Elasticsearch. Unknown settings are rejected with ES's message;
 * settings ES knows but the gateway cannot honour are rejected naming the setting.
 */
public record IndexSettings(int numberOfShards, int numberOfReplicas, Optional<String> refreshInterval,
                            int maxResultWindow, boolean maxResultWindowSet, Optional<Boolean> requestCache,
                            AnalysisSettings analysis, Optional<String> tierPreference, Similarities similarities,
                            IndexBlocks blocks, Optional<Boolean> hidden, boolean closed, Optional<String> gcDeletes) {
    public static final int DEFAULT_MAX_RESULT_WINDOW = 10_000;
    /** How long a deleted document's version is kept when {@code index.gc_deletes} is not set (ES's default). */
    public static final java.time.Duration DEFAULT_GC_DELETES = java.time.Duration.ofSeconds(60);

    /** Without {@code index.gc_deletes} (its default, 60 s). */
    public IndexSettings(int numberOfShards, int numberOfReplicas, Optional<String> refreshInterval,
                         int maxResultWindow, boolean maxResultWindowSet, Optional<Boolean> requestCache,
                         AnalysisSettings analysis, Optional<String> tierPreference, Similarities similarities,
                         IndexBlocks blocks, Optional<Boolean> hidden, boolean closed) {
        this(numberOfShards, numberOfReplicas, refreshInterval, maxResultWindow, maxResultWindowSet, requestCache,
                analysis, tierPreference, similarities, blocks, hidden, closed, Optional.empty());
    }

    /**
     * How long a deleted document's version is kept ({@code index.gc_deletes}, default 60 s): a write of the id
     * within it continues from that version. A negative value keeps none.
     */
    public java.time.Duration gcDeletesDuration() {
        return gcDeletes.map(IndexSettings::timeValue).orElse(DEFAULT_GC_DELETES);
    }

    private static java.time.Duration timeValue(String text) {
        if (text.startsWith("-")) {
            return java.time.Duration.ZERO;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)(nanos|micros|ms|s|m|h|d)?").matcher(text);
        if (!m.matches() || m.group(2) == null) {
            return java.time.Duration.ZERO; // "0"
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "nanos" -> java.time.Duration.ofNanos(n);
            case "micros" -> java.time.Duration.ofNanos(n * 1_000);
            case "ms" -> java.time.Duration.ofMillis(n);
            case "s" -> java.time.Duration.ofSeconds(n);
            case "m" -> java.time.Duration.ofMinutes(n);
            case "h" -> java.time.Duration.ofHours(n);
            default -> java.time.Duration.ofDays(n);
        };
    }
    public static final IndexSettings DEFAULTS = new IndexSettings(1, 1, Optional.empty(), DEFAULT_MAX_RESULT_WINDOW, false);
    /**
     * The private setting Elasticsearch shows on a closed index ({@code POST /{index}/_close}); the gateway keeps the
     * closed state in it, so it persists with the other settings.
     */
    public static final String VERIFIED_BEFORE_CLOSE = "index.verified_before_close";

    /** Open, with {@code index.hidden} given or not. */
    public IndexSettings(int numberOfShards, int numberOfReplicas, Optional<String> refreshInterval,
                         int maxResultWindow, boolean maxResultWindowSet, Optional<Boolean> requestCache,
                         AnalysisSettings analysis, Optional<String> tierPreference, Similarities similarities,
                         IndexBlocks blocks, Optional<Boolean> hidden) {
        this(numberOfShards, numberOfReplicas, refreshInterval, maxResultWindow, maxResultWindowSet, requestCache,
                analysis, tierPreference, similarities, blocks, hidden, false);
    }

    /** Without {@code index.hidden}, open ({@code false}) or closed. */
    public IndexSettings(int numberOfShards, int numberOfReplicas, Optional<String> refreshInterval,
                         int maxResultWindow, boolean maxResultWindowSet, Optional<Boolean> requestCache,
                         AnalysisSettings analysis, Optional<String> tierPreference, Similarities similarities,
                         IndexBlocks blocks, boolean closed) {
        this(numberOfShards, numberOfReplicas, refreshInterval, maxResultWindow, maxResultWindowSet, requestCache,
                analysis, tierPreference, similarities, blocks, Optional.empty(), closed);
    }

    /**
     * Whether the index is hidden ({@code index.hidden}): wildcards and {@code _all} skip it unless
     * {@code expand_wildcards} asks for hidden indices.
     */
    public boolean isHidden() {
        return hidden.orElse(false);
    }

    /** The settings of an open index without blocks. */
    public IndexSettings(int numberOfShards, int numberOfReplicas, Optional<String> refreshInterval,
                         int maxResultWindow, boolean maxResultWindowSet, Optional<Boolean> requestCache,
                         AnalysisSettings analysis, Optional<String> tierPreference, Similarities similarities) {
        this(numberOfShards, numberOfReplicas, refreshInterval, maxResultWindow, maxResultWindowSet, requestCache,
                analysis, tierPreference, similarities, IndexBlocks.NONE, Optional.empty(), false);
    }

    /** The settings of an open index. */
    public IndexSettings(int numberOfShards, int numberOfReplicas, Optional<String> refreshInterval,
                         int maxResultWindow, boolean maxResultWindowSet, Optional<Boolean> requestCache,
                         AnalysisSettings analysis, Optional<String> tierPreference, Similarities similarities,
                         IndexBlocks blocks) {
        this(numberOfShards, numberOfReplicas, refreshInterval, maxResultWindow, maxResultWindowSet, requestCache,
                analysis, tierPreference, similarities, blocks, false);
    }

    /** Without blocks, open ({@code false}) or closed. */
    public IndexSettings(int numberOfShards, int numberOfReplicas, Optional<String> refreshInterval,
                         int maxResultWindow, boolean maxResultWindowSet, Optional<Boolean> requestCache,
                         AnalysisSettings analysis, Optional<String> tierPreference, Similarities similarities,
                         boolean closed) {
        this(numberOfShards, numberOfReplicas, refreshInterval, maxResultWindow, maxResultWindowSet, requestCache,
                analysis, tierPreference, similarities, IndexBlocks.NONE, closed);
    }

    /** These settings with the index closed ({@code true}) or open. */
    public IndexSettings withClosed(boolean closed) {
        return closed == this.closed ? this : new IndexSettings(numberOfShards, numberOfReplicas, refreshInterval,
                maxResultWindow, maxResultWindowSet, requestCache, analysis, tierPreference, similarities, blocks,
                hidden, closed, gcDeletes);
    }

    /** Settings without similarities of their own. */
    public IndexSettings(int numberOfShards, int numberOfReplicas, Optional<String> refreshInterval,
                         int maxResultWindow, boolean maxResultWindowSet, Optional<Boolean> requestCache,
                         AnalysisSettings analysis, Optional<String> tierPreference) {
        this(numberOfShards, numberOfReplicas, refreshInterval, maxResultWindow, maxResultWindowSet, requestCache,
                analysis, tierPreference, Similarities.NONE);
    }

    /** Settings without analysis definitions. */
    public IndexSettings(int numberOfShards, int numberOfReplicas, Optional<String> refreshInterval,
                         int maxResultWindow, boolean maxResultWindowSet, Optional<Boolean> requestCache,
                         Optional<String> tierPreference) {
        this(numberOfShards, numberOfReplicas, refreshInterval, maxResultWindow, maxResultWindowSet, requestCache,
                AnalysisSettings.NONE, tierPreference);
    }

    /** Settings without a {@code routing.allocation.include._tier_preference} of their own. */
    public IndexSettings(int numberOfShards, int numberOfReplicas, Optional<String> refreshInterval,
                         int maxResultWindow, boolean maxResultWindowSet, Optional<Boolean> requestCache,
                         AnalysisSettings analysis) {
        this(numberOfShards, numberOfReplicas, refreshInterval, maxResultWindow, maxResultWindowSet, requestCache,
                analysis, Optional.empty());
    }

    /** Settings without {@code requests.cache.enable}. */
    public IndexSettings(int numberOfShards, int numberOfReplicas, Optional<String> refreshInterval,
                         int maxResultWindow, boolean maxResultWindowSet) {
        this(numberOfShards, numberOfReplicas, refreshInterval, maxResultWindow, maxResultWindowSet, Optional.empty());
    }

    /** Settings without analysis definitions or a tier preference of their own. */
    public IndexSettings(int numberOfShards, int numberOfReplicas, Optional<String> refreshInterval,
                         int maxResultWindow, boolean maxResultWindowSet, Optional<Boolean> requestCache) {
        this(numberOfShards, numberOfReplicas, refreshInterval, maxResultWindow, maxResultWindowSet, requestCache,
                AnalysisSettings.NONE, Optional.empty());
    }

    /** The settings that {@code PUT _settings} may change on an open index (ES's dynamic index settings). */
    private static final Set<String> DYNAMIC = Set.of("index.number_of_replicas", "index.refresh_interval",
            "index.max_result_window", "index.requests.cache.enable",
            "index.routing.allocation.include._tier_preference", "index.blocks.read_only",
            "index.blocks.read_only_allow_delete", "index.blocks.read", "index.blocks.write", "index.blocks.metadata",
            "index.hidden", "index.gc_deletes");

    /**
     * These settings after {@code PUT /{index}/_settings} with {@code body}: dynamic settings change ({@code null}
     * resets one to its default); a static setting is ES's "Can't update non dynamic settings" for the open index
     * {@code index}; unknown and unimplemented settings fail as at creation.
     */
    public IndexSettings update(JsonValue body, String index, String uuid) {
        JsonObject object = JsonReads.object(body, JsonReads::parseError, "[settings]");
        if (object.members().size() == 1 && object.get("settings") instanceof JsonObject inner) {
            object = inner; // {"settings": {...}}, as ES also reads it
        }
        Map<String, JsonValue> flat = new LinkedHashMap<>();
        flatten("", object, flat);
        java.util.Set<String> keys = new java.util.HashSet<>();
        flat.keySet().forEach(k -> keys.add(k.startsWith("index.") ? k : "index." + k));
        IndexBlocks.checkSettingsUpdate(index, blocks, keys);
        Map<String, JsonValue> merged = new LinkedHashMap<>();
        toFlatMap().forEach((k, v) -> {
            if (!k.startsWith(AnalysisSettings.PREFIX) && !k.startsWith(Similarities.PREFIX)
                    && !k.equals(VERIFIED_BEFORE_CLOSE)) { // static: kept below
                merged.put(k, new JsonValue.JsonString(v));
            }
        });
        // a closed index takes new analysis and similarity definitions (merged into its own, null removing one)
        Map<String, JsonValue> analysisFlat = new LinkedHashMap<>();
        Map<String, JsonValue> similarityFlat = new LinkedHashMap<>();
        Map<String, String> current = new LinkedHashMap<>();
        analysis.toFlatMap(current);
        similarities.toFlatMap(current);
        current.forEach((k, v) -> (k.startsWith(AnalysisSettings.PREFIX) ? analysisFlat : similarityFlat)
                .put(k, new JsonValue.JsonString(v)));
        boolean staticChanged = false;
        tierPreference.ifPresent(t -> merged.put("index.routing.allocation.include._tier_preference",
                new JsonValue.JsonString(t)));
        java.util.List<String> statics = new java.util.ArrayList<>();
        for (Map.Entry<String, JsonValue> e : flat.entrySet()) {
            String key = e.getKey().startsWith("index.") ? e.getKey() : "index." + e.getKey();
            if (!DYNAMIC.contains(key)) {
                boolean definition = key.startsWith(AnalysisSettings.PREFIX) || key.startsWith(Similarities.PREFIX);
                if (closed && definition) {
                    Map<String, JsonValue> into = key.startsWith(AnalysisSettings.PREFIX) ? analysisFlat
                            : similarityFlat;
                    String base = key;
                    into.keySet().removeIf(k -> k.equals(base) || k.startsWith(base + "."));
                    if (!(e.getValue() instanceof JsonValue.JsonNull)) {
                        into.put(key, e.getValue());
                    }
                    staticChanged = true;
                    continue;
                }
                if (closed && key.equals("index.number_of_shards")) {
                    // sic: Elasticsearch puts the index's name where its message means "index"
                    throw GatewayException.illegalArgument("final " + index + " setting [" + key + "], not updateable");
                }
                if (key.equals("index.number_of_shards") || key.equals("index.version.created") || definition) {
                    statics.add(key);
                    continue;
                }
                throw rejected(key);
            }
            if (e.getValue() instanceof JsonValue.JsonNull) {
                merged.remove(key);
            } else {
                merged.put(key, e.getValue());
            }
        }
        if (!statics.isEmpty()) {
            throw GatewayException.illegalArgument("Can't update non dynamic settings [" + statics + "] for open"
                    + " indices [[" + index + "/" + uuid + "]] unless the `reopen` query parameter is set to true."
                    + " Alternatively, close the indices, apply the settings changes, and reopen the indices");
        }
        IndexSettings updated = parse(new JsonObject(merged));
        AnalysisSettings newAnalysis = !staticChanged ? analysis : analysisFlat.isEmpty() ? AnalysisSettings.NONE
                : AnalysisSettings.parseFlat(analysisFlat);
        Similarities newSimilarities = !staticChanged ? similarities : similarityFlat.isEmpty() ? Similarities.NONE
                : Similarities.parseFlat(similarityFlat);
        return new IndexSettings(updated.numberOfShards, updated.numberOfReplicas, updated.refreshInterval,
                updated.maxResultWindow, updated.maxResultWindowSet, updated.requestCache, newAnalysis,
                updated.tierPreference, newSimilarities, updated.blocks, updated.hidden, closed, updated.gcDeletes);
    }

    /** Whether the request cache may keep this index's answers ({@code index.requests.cache.enable}, default true). */
    public boolean requestCacheEnabled() {
        return requestCache.orElse(true);
    }

    private static final Pattern TIME_VALUE = Pattern.compile("-1|0|\\d+(nanos|micros|ms|s|m|h|d)");
    /** Settings Elasticsearch knows that the gateway does not implement: named in a 400, never silently dropped. */
    private static final Set<String> KNOWN_UNSUPPORTED_PREFIXES = Set.of(
            "index.mapping.", "index.sort.",
            "index.routing.", "index.lifecycle.", "index.codec", "index.number_of_routing_shards",
            "index.auto_expand_replicas", "index.max_inner_result_window", "index.max_ngram_diff",
            "index.max_shingle_diff", "index.default_pipeline", "index.final_pipeline", "index.search.",
            "index.translog.", "index.merge.", "index.store.", "index.query.", "index.max_terms_count",
            "index.max_regex_length", "index.highlight.", "index.knn", "index.mode");
    private static final Set<String> PRIVATE = Set.of("index.uuid", "index.creation_date", "index.version.created",
            "index.provided_name", VERIFIED_BEFORE_CLOSE);

    public static IndexSettings parse(JsonValue settings) {
        JsonObject object = JsonReads.object(settings, JsonReads::parseError, "[settings]");
        Map<String, JsonValue> flat = new LinkedHashMap<>();
        flatten("", object, flat);
        int shards = 1;
        int replicas = 1;
        Optional<String> refresh = Optional.empty();
        int window = DEFAULT_MAX_RESULT_WINDOW;
        boolean windowSet = false;
        Optional<Boolean> requestCache = Optional.empty();
        Map<String, JsonValue> analysis = new LinkedHashMap<>();
        Map<String, JsonValue> similarity = new LinkedHashMap<>();
        Optional<String> tier = Optional.empty();
        IndexBlocks blocks = IndexBlocks.NONE;
        Optional<Boolean> hidden = Optional.empty();
        Optional<String> gcDeletes = Optional.empty();
        for (Map.Entry<String, JsonValue> e : flat.entrySet()) {
            String key = e.getKey().startsWith("index.") ? e.getKey() : "index." + e.getKey();
            JsonValue value = e.getValue();
            if (key.startsWith(AnalysisSettings.PREFIX)) {
                analysis.put(key, value);
                continue;
            }
            if (key.startsWith(Similarities.PREFIX)) {
                similarity.put(key, value);
                continue;
            }
            switch (key) {
                case "index.number_of_shards" -> shards = intSetting(key, value, 1, 1024);
                case "index.number_of_replicas" -> replicas = intSetting(key, value, 0, Integer.MAX_VALUE);
                case "index.max_result_window" -> {
                    window = intSetting(key, value, 1, Integer.MAX_VALUE);
                    windowSet = true;
                }
                case "index.refresh_interval" -> {
                    String text = JsonReads.text(value).orElseThrow(() -> failedToParse(key, value));
                    if (!TIME_VALUE.matcher(text).matches()) {
                        throw GatewayException.illegalArgument("failed to parse setting [" + key + "] with value ["
                                + text + "] as a time value: unit is missing or unrecognized");
                    }
                    refresh = Optional.of(text);
                }
                case "index.requests.cache.enable" -> requestCache = Optional.of(booleanSetting(value));
                case "index.gc_deletes" -> {
                    String text = JsonReads.text(value).orElseThrow(() -> failedToParse(key, value));
                    if (!TIME_VALUE.matcher(text).matches()) {
                        throw GatewayException.illegalArgument("failed to parse setting [" + key + "] with value ["
                                + text + "] as a time value: unit is missing or unrecognized");
                    }
                    gcDeletes = Optional.of(text);
                }
                case "index.blocks.read_only", "index.blocks.read_only_allow_delete", "index.blocks.read",
                     "index.blocks.write", "index.blocks.metadata" ->
                        blocks = IndexBlocks.with(blocks, key, booleanSetting(value));
                case "index.hidden" -> hidden = Optional.of(booleanSetting(value));
                case "index.routing.allocation.include._tier_preference" ->
                        tier = Optional.of(JsonReads.text(value).orElseThrow(() -> failedToParse(key, value)));
                default -> throw rejected(key);
            }
        }
        return new IndexSettings(shards, replicas, refresh, window, windowSet, requestCache,
                analysis.isEmpty() ? AnalysisSettings.NONE : AnalysisSettings.parseFlat(analysis),
                tier.filter(t -> !t.equals(IndexMetadata.TIER_PREFERENCE)),
                similarity.isEmpty() ? Similarities.NONE : Similarities.parseFlat(similarity),
                blocks.equals(IndexBlocks.NONE) ? IndexBlocks.NONE : blocks, hidden, false, gcDeletes);
    }

    /** A boolean setting as Elasticsearch parses it: {@code true}/{@code false}, as JSON booleans or strings. */
    private static boolean booleanSetting(JsonValue value) {
        String text = JsonReads.text(value).orElse(value.tokenName());
        return switch (text) {
            case "true" -> true;
            case "false" -> false;
            default -> throw GatewayException.illegalArgument("Failed to parse value [" + text
                    + "] as only [true] or [false] are allowed.");
        };
    }

    private static GatewayException rejected(String key) {
        if (key.equals("index.version.created")) {
            return GatewayException.illegalArgument("private index setting [" + key + "] can not be set explicitly");
        }
        if (PRIVATE.contains(key)) {
            // ES 8.15 refuses the other private settings GET _settings shows as unknown ones
            return GatewayException.illegalArgument("unknown setting [" + key + "] please check that any required"
                    + " plugins are installed, or check the breaking changes documentation for removed settings");
        }
        for (String prefix : KNOWN_UNSUPPORTED_PREFIXES) {
            if (key.startsWith(prefix)) {
                return GatewayException.unsupported("index setting [" + key + "]");
            }
        }
        return GatewayException.illegalArgument("unknown setting [" + key + "] please check that any required plugins"
                + " are installed, or check the breaking changes documentation for removed settings");
    }

    private static void flatten(String prefix, JsonObject object, Map<String, JsonValue> out) {
        for (Map.Entry<String, JsonValue> e : object.members().entrySet()) {
            String key = prefix + e.getKey();
            if (e.getValue() instanceof JsonObject nested) {
                flatten(key + ".", nested, out);
            } else {
                out.put(key, e.getValue());
            }
        }
    }

    private static int intSetting(String key, JsonValue value, int min, int max) {
        long n = JsonReads.integer(value).orElseThrow(() -> failedToParse(key, value));
        if (n != (int) n) {
            throw failedToParse(key, value);
        }
        if (n < min) {
            throw GatewayException.illegalArgument("Failed to parse value [" + n + "] for setting [" + key
                    + "] must be >= " + min);
        }
        if (n > max) {
            throw GatewayException.illegalArgument("Failed to parse value [" + n + "] for setting [" + key
                    + "] must be <= " + max);
        }
        return (int) n;
    }

    private static GatewayException failedToParse(String key, JsonValue value) {
        return GatewayException.illegalArgument("Failed to parse value [" + JsonReads.text(value).orElse(value.tokenName())
                + "] for setting [" + key + "]");
    }

    /**
     * The user-settable part as flat {@code index.*} keys with string values (ES renders every setting as a string),
     * for persistence and for rendering next to the private settings.
     */
    public Map<String, String> toFlatMap() {
        Map<String, String> out = new LinkedHashMap<>();
        if (maxResultWindowSet) {
            out.put("index.max_result_window", Integer.toString(maxResultWindow));
        }
        out.put("index.number_of_replicas", Integer.toString(numberOfReplicas));
        out.put("index.number_of_shards", Integer.toString(numberOfShards));
        refreshInterval.ifPresent(r -> out.put("index.refresh_interval", r));
        requestCache.ifPresent(enabled -> out.put("index.requests.cache.enable", Boolean.toString(enabled)));
        analysis.toFlatMap(out);
        similarities.toFlatMap(out);
        tierPreference.ifPresent(t -> out.put("index.routing.allocation.include._tier_preference", t));
        blocks.toFlatMap(out);
        hidden.ifPresent(h -> out.put("index.hidden", h.toString()));
        gcDeletes.ifPresent(g -> out.put("index.gc_deletes", g));
        if (closed) {
            out.put(VERIFIED_BEFORE_CLOSE, "true");
        }
        return out;
    }

    /** Reads back what {@link #toFlatMap()} wrote. */
    public static IndexSettings fromFlatMap(Map<String, String> flat) {
        Map<String, JsonValue> members = new LinkedHashMap<>();
        flat.forEach((k, v) -> {
            if (!k.equals(VERIFIED_BEFORE_CLOSE)) {
                members.put(k, new JsonValue.JsonString(v));
            }
        });
        return parse(new JsonObject(members)).withClosed("true".equals(flat.get(VERIFIED_BEFORE_CLOSE)));
    }
}
