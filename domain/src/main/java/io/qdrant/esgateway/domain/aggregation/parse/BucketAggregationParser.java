package io.qdrant.esgateway.domain.aggregation.parse;

import io.qdrant.esgateway.domain.aggregation.Aggregation;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.ObjectParseErrors;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.query.dsl.QueryDsl;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Parses the single-bucket and filter-like aggregations ({@code filter}, {@code filters}, {@code missing},
 * {@code global}) with Elasticsearch 8's errors, and ES's "did you mean" suggestion for an unknown type.
 */
final class BucketAggregationParser {
    /** The types the gateway implements, for suggestions (with the ones it names as not implemented). */
    private static final Set<String> IMPLEMENTED = Set.of("terms", "min", "max", "avg", "sum", "value_count",
            "filter", "filters", "missing", "global", "stats", "extended_stats", "cardinality", "percentiles",
            "top_hits", "range", "date_range", "histogram", "date_histogram", "composite");

    private BucketAggregationParser() {
    }

    static Aggregation parse(String name, String type, JsonObject options, Map<String, Aggregation> subs) {
        return switch (type) {
            case "filter" -> new Aggregation.Filter(QueryDsl.parse(options), subs);
            case "missing" -> missing(options, subs);
            case "global" -> {
                for (Map.Entry<String, JsonValue> e : options.members().entrySet()) {
                    throw AggregationParser.parsing("Expected [FIELD_NAME] under a [START_OBJECT], but got a ["
                            + e.getValue().tokenName() + "] in [" + name + "]");
                }
                yield new Aggregation.Global(subs);
            }
            case "filters" -> filters(name, options, subs);
            default -> throw new IllegalArgumentException(type);
        };
    }

    private static Aggregation.Missing missing(JsonObject options, Map<String, Aggregation> subs) {
        String field = null;
        for (Map.Entry<String, JsonValue> e : options.members().entrySet()) {
            switch (e.getKey()) {
                case "field" -> field = AggregationParser.string("missing", "field", e.getValue());
                case "script" -> throw GatewayException.unsupported("[script] in a [missing] aggregation");
                default -> throw AggregationFields.unknown("missing", e.getKey(), options);
            }
        }
        if (field == null) {
            throw GatewayException.illegalArgument("Required one of fields [field, script], but none were"
                    + " specified. ");
        }
        return new Aggregation.Missing(field, subs);
    }

    private static Aggregation.Filters filters(String name, JsonObject options, Map<String, Aggregation> subs) {
        List<String> names = new ArrayList<>();
        List<Query> queries = new ArrayList<>();
        boolean anonymous = false;
        Boolean keyed = null;
        Boolean other = null;
        Optional<String> otherKey = Optional.empty();
        for (Map.Entry<String, JsonValue> e : options.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "filters" -> {
                    names.clear();
                    queries.clear();
                    if (v instanceof JsonArray a) {
                        anonymous = true;
                        for (JsonValue q : a.elements()) {
                            queries.add(QueryDsl.parse(q));
                        }
                    } else if (v instanceof JsonObject o) {
                        anonymous = false;
                        // Elasticsearch sorts named filters by name
                        TreeMap<String, Query> sorted = new TreeMap<>(Comparator.naturalOrder());
                        o.members().forEach((k, q) -> sorted.put(k, QueryDsl.parse(q)));
                        names.addAll(sorted.keySet());
                        queries.addAll(sorted.values());
                    } else {
                        throw unknownKey(name, e.getKey(), v);
                    }
                }
                case "keyed" -> keyed = bool(name, e.getKey(), v);
                case "other_bucket" -> other = bool(name, e.getKey(), v);
                case "other_bucket_key" -> {
                    if (v instanceof JsonObject || v instanceof JsonArray) {
                        throw unknownKey(name, e.getKey(), v);
                    }
                    otherKey = JsonReads.text(v);
                }
                default -> throw unknownKey(name, e.getKey(), v);
            }
        }
        if (queries.isEmpty()) {
            throw GatewayException.illegalArgument("[filters] cannot be empty.");
        }
        // other_bucket_key alone asks for the other bucket; an explicit other_bucket: false wins
        boolean withOther = other != null ? other : otherKey.isPresent();
        Optional<String> otherBucket = withOther ? Optional.of(otherKey.orElse("_other_")) : Optional.empty();
        // anonymous filters have no names to key buckets by: ES renders them as an array whatever [keyed] says
        return new Aggregation.Filters(names, queries, !anonymous && (keyed == null || keyed), anonymous, otherBucket,
                subs);
    }

    private static boolean bool(String name, String key, JsonValue v) {
        if (v instanceof JsonValue.JsonBool b) {
            return b.value();
        }
        throw unknownKey(name, key, v);
    }

    private static GatewayException unknownKey(String name, String key, JsonValue v) {
        return AggregationParser.parsing("Unknown key for a " + v.tokenName() + " in [" + name + "]: [" + key
                + "].");
    }

    /**
     * Elasticsearch's suggestion after "Unknown aggregation type [x]": the known types whose Levenshtein
     * similarity (1 - distance / longer length) exceeds 0.7, most similar first.
     */
    static String didYouMean(String type, Set<String> others) {
        Set<String> known = new LinkedHashSet<>(IMPLEMENTED);
        known.addAll(others);
        return ObjectParseErrors.didYouMean(type, known, 0.7f);
    }
}
