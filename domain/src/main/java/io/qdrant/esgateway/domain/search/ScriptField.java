package io.qdrant.esgateway.domain.search;

import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.script.Script;
import io.qdrant.esgateway.domain.script.ScoreScript;
import io.qdrant.esgateway.domain.script.ScriptContext;
import io.qdrant.esgateway.domain.script.ScriptValues;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One of a search's {@code script_fields}: a value computed per hit by a script in the field context ({@code doc},
 * {@code params} with the hit's {@code _source}), returned under the hit's {@code fields} as Elasticsearch returns
 * it: a collection as its elements, any other value (null too) as a one-element list. With {@code ignore_failure} a
 * script that fails leaves the field out of that hit; otherwise the failure fails the search. {@code source} is the
 * script's source, or null until a stored script ({@code id}) is read from the catalog.
 */
public record ScriptField(String name, Script script, String source, boolean ignoreFailure) {

    /** This field with the source of its stored script. */
    public ScriptField withSource(String storedSource) {
        return new ScriptField(name, script, storedSource, ignoreFailure);
    }

    /** Parses a body's {@code script_fields}: {@code {name: {script: …, ignore_failure: …}}}. */
    public static List<ScriptField> parse(JsonValue value) {
        if (!(value instanceof JsonObject fields)) {
            throw new GatewayException(ErrorKind.PARSING, "Unknown key for a " + value.tokenName()
                    + " in [script_fields].");
        }
        List<ScriptField> out = new ArrayList<>();
        for (Map.Entry<String, JsonValue> field : fields.members().entrySet()) {
            String name = field.getKey();
            if (!(field.getValue() instanceof JsonObject o)) {
                throw new GatewayException(ErrorKind.PARSING, "Expected [START_OBJECT] in [" + name + "] but found ["
                        + field.getValue().tokenName() + "]");
            }
            Script script = null;
            boolean ignore = false;
            for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
                JsonValue v = e.getValue();
                switch (e.getKey()) {
                    case "script" -> script = Script.parse(v);
                    case "ignore_failure" -> ignore = JsonReads.bool(v).orElseThrow(() ->
                            GatewayException.illegalArgument("Failed to parse value [" + JsonReads.text(v)
                                    .orElse(v.tokenName()) + "] as only [true] or [false] are allowed."));
                    default -> throw new GatewayException(ErrorKind.PARSING, "Unknown key for a " + v.tokenName()
                            + " in [" + e.getKey() + "].");
                }
            }
            if (script == null) {
                throw new GatewayException(ErrorKind.PARSING, "[script_fields] field [" + name + "] requires a"
                        + " [script]");
            }
            out.add(new ScriptField(name, script, script.source().orElse(null), ignore));
        }
        return out;
    }

    /**
     * The values of {@code fields} for one hit of {@code index}, by field name, from its {@code source} (the
     * document's stored {@code _source}: the script's {@code params._source}, and the doc values it reads).
     */
    public static Map<String, List<JsonValue>> values(String index, String id, JsonObject source, Mappings mappings,
                                                      List<ScriptField> fields) {
        Map<String, List<JsonValue>> out = new LinkedHashMap<>();
        if (fields.isEmpty()) {
            return out;
        }
        io.qdrant.esgateway.domain.aggregation.ValuesDoc doc = new io.qdrant.esgateway.domain.aggregation.ValuesDoc(
                id, Float.NaN, DocumentParser.parse(mappings, source, id).values(), i -> false);
        io.qdrant.esgateway.domain.aggregation.AggregationDocReader reader =
                new io.qdrant.esgateway.domain.aggregation.AggregationDocReader(doc, 0);
        for (ScriptField field : fields) {
            if (field.source() == null) {
                throw GatewayException.unsupported("a stored script ([id]) in [script_fields] on this path");
            }
            ScoreScript script = ScoreScript.compile(ScriptContext.FIELD, field.source(), field.script(), mappings,
                    index);
            Object value;
            try {
                value = script.value(reader, Double.NaN, source);
            } catch (GatewayException e) {
                if (field.ignoreFailure()) {
                    continue;
                }
                throw e;
            }
            List<JsonValue> values = new ArrayList<>();
            if (value instanceof Collection<?> c) {
                c.forEach(v -> values.add(json(v)));
            } else {
                values.add(json(value));
            }
            out.put(field.name(), values);
        }
        return out;
    }

    /** A script's value as a hit field renders it: dates in ISO form with milliseconds, as Elasticsearch writes them. */
    private static JsonValue json(Object value) {
        if (value instanceof java.time.ZonedDateTime z) {
            return new JsonValue.JsonString(DATE.format(z));
        }
        if (value instanceof Collection<?> c && c.stream().anyMatch(v -> v instanceof java.time.ZonedDateTime)) {
            List<JsonValue> out = new ArrayList<>();
            c.forEach(v -> out.add(json(v)));
            return new JsonValue.JsonArray(out);
        }
        try {
            return ScriptValues.toJson(value);
        } catch (IllegalArgumentException e) {
            throw GatewayException.illegalArgument(e.getMessage());
        }
    }

    private static final java.time.format.DateTimeFormatter DATE = java.time.format.DateTimeFormatter.ofPattern(
            "uuuu-MM-dd'T'HH:mm:ss.SSSXXX", java.util.Locale.ROOT);
}
