package io.qdrant.esgateway.domain.query.dsl;

import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNull;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.query.Fuzziness;
import io.qdrant.esgateway.domain.query.Query;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Term-level queries: exact values, ranges, presence, ids and patterns over un-analysed terms. */
final class TermLevelQueries {
    private TermLevelQueries() {
    }

    static Query term(JsonValue body) {
        Map.Entry<String, DslObject> f = DslObject.oneField("term", body, "value");
        DslObject o = f.getValue();
        JsonValue value = o.required("value");
        if (value instanceof JsonObject || value instanceof JsonArray || value instanceof JsonNull) {
            throw DslObject.parsing("[term] query does not support array of values");
        }
        boolean ci = o.bool("case_insensitive").orElse(false);
        float boost = o.boost();
        o.done();
        return new Query.Term(f.getKey(), value, ci, boost);
    }

    /** {@code terms}: the field's value list; the terms-lookup form ({@code index}/{@code id}/{@code path}) is rejected. */
    static Query terms(JsonValue body) {
        if (!(body instanceof JsonObject object)) {
            throw DslObject.malformed("terms");
        }
        Map<String, JsonValue> members = new LinkedHashMap<>(object.members());
        DslObject.IGNORED.forEach(members::remove);
        float boost = 1.0f;
        if (members.containsKey("boost")) {
            boost = new DslObject("terms", new JsonObject(Map.of("boost", members.remove("boost")))).boost();
        }
        if (members.size() != 1) {
            throw DslObject.parsing("[terms] query does not support multiple fields");
        }
        Map.Entry<String, JsonValue> only = members.entrySet().iterator().next();
        if (only.getValue() instanceof JsonObject) {
            throw io.qdrant.esgateway.domain.error.GatewayException.unsupported("the terms lookup form of [terms]");
        }
        if (!(only.getValue() instanceof JsonArray values)) {
            throw DslObject.parsing("[terms] query does not support [" + only.getKey() + "]");
        }
        for (JsonValue v : values.elements()) {
            if (v instanceof JsonObject || v instanceof JsonArray || v instanceof JsonNull) {
                throw DslObject.parsing("[terms] query values must be scalars");
            }
        }
        return new Query.Terms(only.getKey(), values.elements(), boost);
    }

    /** {@code range} with {@code gt/gte/lt/lte} (and the legacy {@code from/to/include_lower/include_upper}). */
    static Query range(JsonValue body) {
        Map.Entry<String, DslObject> f = DslObject.oneField("range", body, "__value");
        DslObject o = f.getValue();
        if (o.take("__value").isPresent()) {
            throw DslObject.parsing("[range] query malformed, no start_object after query name");
        }
        Optional<Query.Bound> lower = Optional.empty();
        Optional<Query.Bound> upper = Optional.empty();
        Optional<JsonValue> gt = nonNull(o.take("gt"));
        Optional<JsonValue> gte = nonNull(o.take("gte"));
        Optional<JsonValue> lt = nonNull(o.take("lt"));
        Optional<JsonValue> lte = nonNull(o.take("lte"));
        Optional<JsonValue> from = nonNull(o.take("from"));
        Optional<JsonValue> to = nonNull(o.take("to"));
        boolean includeLower = o.bool("include_lower").orElse(true);
        boolean includeUpper = o.bool("include_upper").orElse(true);
        if (from.isPresent()) {
            lower = Optional.of(new Query.Bound(from.get(), includeLower));
        }
        if (to.isPresent()) {
            upper = Optional.of(new Query.Bound(to.get(), includeUpper));
        }
        if (gt.isPresent()) {
            lower = Optional.of(new Query.Bound(gt.get(), false));
        }
        if (gte.isPresent()) {
            lower = Optional.of(new Query.Bound(gte.get(), true));
        }
        if (lt.isPresent()) {
            upper = Optional.of(new Query.Bound(lt.get(), false));
        }
        if (lte.isPresent()) {
            upper = Optional.of(new Query.Bound(lte.get(), true));
        }
        Optional<String> format = o.string("format");
        Optional<String> timeZone = o.string("time_zone");
        o.string("relation").filter(r -> !r.equalsIgnoreCase("intersects")).ifPresent(r -> {
            throw io.qdrant.esgateway.domain.error.GatewayException.unsupported("[range] [relation: " + r + "]");
        });
        float boost = o.boost();
        o.done();
        return new Query.Range(f.getKey(), lower, upper, format, timeZone, boost);
    }

    private static Optional<JsonValue> nonNull(Optional<JsonValue> v) {
        return v.filter(x -> !(x instanceof JsonNull));
    }

    static Query exists(JsonValue body) {
        DslObject o = new DslObject("exists", body);
        String field = o.string("field").orElseThrow(() -> DslObject.parsing("[exists] must be provided with a [field]"));
        float boost = o.boost();
        o.done();
        return new Query.Exists(field, boost);
    }

    static Query ids(JsonValue body) {
        DslObject o = new DslObject("ids", body);
        List<String> values = new ArrayList<>(o.strings("values"));
        float boost = o.boost();
        o.done();
        return new Query.Ids(values, boost);
    }

    static Query prefix(JsonValue body) {
        Map.Entry<String, DslObject> f = DslObject.oneField("prefix", body, "value");
        DslObject o = f.getValue();
        String value = text(o, "value");
        boolean ci = o.bool("case_insensitive").orElse(false);
        rewrite(o);
        float boost = o.boost();
        o.done();
        return new Query.Prefix(f.getKey(), value, ci, boost);
    }

    static Query wildcard(JsonValue body) {
        Map.Entry<String, DslObject> f = DslObject.oneField("wildcard", body, "value");
        DslObject o = f.getValue();
        Optional<String> value = o.string("value");
        Optional<String> wildcard = o.string("wildcard");
        String pattern = value.or(() -> wildcard).orElseThrow(
                () -> DslObject.parsing("[wildcard] requires [value]"));
        boolean ci = o.bool("case_insensitive").orElse(false);
        rewrite(o);
        float boost = o.boost();
        o.done();
        return new Query.Wildcard(f.getKey(), pattern, ci, boost);
    }

    static Query regexp(JsonValue body) {
        Map.Entry<String, DslObject> f = DslObject.oneField("regexp", body, "value");
        DslObject o = f.getValue();
        String value = text(o, "value");
        boolean ci = o.bool("case_insensitive").orElse(false);
        int maxStates = o.intValue("max_determinized_states").orElse(10_000);
        o.string("flags").filter(fl -> !fl.equals("ALL")).ifPresent(fl -> {
            throw io.qdrant.esgateway.domain.error.GatewayException.unsupported("[regexp] [flags: " + fl + "]");
        });
        o.take("flags_value");
        rewrite(o);
        float boost = o.boost();
        o.done();
        return new Query.Regexp(f.getKey(), value, ci, maxStates, boost);
    }

    static Query fuzzy(JsonValue body) {
        Map.Entry<String, DslObject> f = DslObject.oneField("fuzzy", body, "value");
        DslObject o = f.getValue();
        JsonValue value = o.required("value");
        Fuzziness fuzziness = o.take("fuzziness").map(v -> Fuzziness.parse(v, "fuzzy"))
                .orElse(new Fuzziness.Auto(3, 6));
        int prefixLength = o.intValue("prefix_length").orElse(0);
        int maxExpansions = o.intValue("max_expansions").orElse(50);
        boolean transpositions = o.bool("transpositions").orElse(true);
        rewrite(o);
        float boost = o.boost();
        o.done();
        return new Query.Fuzzy(f.getKey(), value, fuzziness, prefixLength, maxExpansions, transpositions, boost);
    }

    private static String text(DslObject o, String key) {
        return o.string(key).orElseThrow(() -> DslObject.parsing("[" + o.type() + "] requires [" + key + "]"));
    }

    /**
     * {@code rewrite} changes how a multi-term query scores; only ES's default ({@code constant_score},
     * {@code constant_score_blended}) is honoured, other methods are rejected by name.
     */
    private static void rewrite(DslObject o) {
        o.string("rewrite").filter(r -> !r.equals("constant_score") && !r.equals("constant_score_blended"))
                .ifPresent(r -> {
                    throw io.qdrant.esgateway.domain.error.GatewayException.unsupported("[" + o.type() + "] [rewrite: "
                            + r + "]");
                });
    }
}
