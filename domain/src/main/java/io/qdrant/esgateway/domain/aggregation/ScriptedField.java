package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.script.Script;
import io.qdrant.esgateway.domain.script.ScoreScript;
import io.qdrant.esgateway.domain.script.ScriptContext;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The {@code script} of an aggregation, read as the values of a field: a script alone gives each document's values
 * (its value, or the elements of a returned collection); with a {@code field} it is a value script, run once per
 * value of the field with that value as {@code _value}. An aggregation names it by a reserved field name
 * ({@link #name}) that no mapping can hold, so that every aggregator reads it as it reads a field; the gateway
 * computes its values over a complete scan ({@link Bound#values}).
 *
 * <p>Value types, as Elasticsearch gives them: a {@code terms} or {@code cardinality} script without a field gives
 * strings (a number as its {@code toString}), every other script numbers (doubles); a value script keeps the kind
 * of its field (a keyword's values stay strings, numbers become doubles).
 */
public final class ScriptedField {
    private static final String PREFIX = "\u0000script\u0000";

    private ScriptedField() {
    }

    /**
     * The reserved field name of {@code script} (an aggregation's {@code script} value, checked here) read by an
     * aggregation that wants {@code strings} (terms, cardinality) or numbers, over {@code field} (null for none).
     */
    public static String name(JsonValue script, String field, boolean strings) {
        Script parsed = Script.parse(script);
        JsonObjectBuilder spec = JsonObjectBuilder.object();
        parsed.source().ifPresent(s -> spec.put("source", s));
        parsed.id().ifPresent(s -> spec.put("id", s));
        spec.put("params", parsed.params());
        return PREFIX + (strings ? "s" : "n") + (field == null ? "" : field) + '\u0000' + Json.write(spec.build());
    }

    /** Whether {@code field} names a script. */
    public static boolean is(String field) {
        return field != null && field.startsWith(PREFIX);
    }

    /**
     * The script {@code name} names, compiled for an index ({@code stored} reads a stored script's source by id;
     * its failure for an unknown id is the search's).
     */
    static Bound bind(String name, String index, Mappings mappings, Function<String, String> stored) {
        String rest = name.substring(PREFIX.length());
        boolean strings = rest.charAt(0) == 's';
        int end = rest.indexOf('\u0000');
        String field = end == 1 ? null : rest.substring(1, end);
        Script script = Script.parse(Json.parse(rest.substring(end + 1)));
        String source = script.source().orElseGet(() -> stored.apply(script.id().orElseThrow()));
        ScoreScript compiled = ScoreScript.compile(ScriptContext.AGGS, source, script, mappings, index);
        FieldRef over = field == null ? null : FieldRef.of(index, field, mappings);
        FieldRef.ValueKind kind = over != null ? (over.kind() == FieldRef.ValueKind.KEYWORD
                ? FieldRef.ValueKind.KEYWORD : FieldRef.ValueKind.DOUBLE)
                : strings ? FieldRef.ValueKind.KEYWORD : FieldRef.ValueKind.DOUBLE;
        return new Bound(name, compiled, Optional.ofNullable(over), kind);
    }

    /** A compiled script of an aggregation on one index, and the kind of the values it gives. */
    record Bound(String name, ScoreScript script, Optional<FieldRef> over, FieldRef.ValueKind kind) {

        FieldRef ref() {
            return new FieldRef(name, kind);
        }

        /** The script's values for one document, as {@link AggregationDoc} promises a field's values. */
        Object values(AggregationDoc doc, JsonObject source) {
            AggregationDocReader reader = new AggregationDocReader(doc, doc.position());
            List<Object> raw = new ArrayList<>();
            if (over.isEmpty()) {
                add(raw, script.value(reader, doc.score(), source, null));
            } else {
                for (Object v : fieldValues(doc, over.get())) {
                    add(raw, script.value(reader, doc.score(), source, v));
                }
            }
            if (kind == FieldRef.ValueKind.KEYWORD) {
                // every value, duplicates too (value_count counts them, as ES); terms takes each key once
                return raw.stream().filter(v -> v != null).map(ScriptedField::text)
                        .sorted(Keys::compareCodePoints).toArray(String[]::new);
            }
            double[] out = new double[raw.size()];
            int n = 0;
            for (Object v : raw) {
                if (v == null) {
                    continue;
                }
                if (!(v instanceof Number number)) {
                    throw GatewayException.illegalArgument("Unsupported script value [" + v + "], expected a"
                            + " number, date, or boolean");
                }
                out[n++] = number.doubleValue();
            }
            out = Arrays.copyOf(out, n);
            Arrays.sort(out);
            return out;
        }

        private static void add(List<Object> out, Object value) {
            if (value instanceof Collection<?> c) {
                out.addAll(c);
            } else {
                out.add(value);
            }
        }

        /** The values of the field a value script maps, as a script reads them. */
        private static List<Object> fieldValues(AggregationDoc doc, FieldRef field) {
            List<Object> out = new ArrayList<>();
            switch (field.kind()) {
                case KEYWORD -> out.addAll(Arrays.asList(doc.keywords(field.name())));
                case LONG, DATE -> Arrays.stream(doc.longs(field.name())).forEach(out::add);
                case BOOLEAN -> Arrays.stream(doc.longs(field.name())).forEach(l -> out.add(l != 0));
                case DOUBLE, FLOAT -> Arrays.stream(doc.doubles(field.name())).forEach(out::add);
                case UNMAPPED -> {
                }
            }
            return out;
        }
    }

    private static String text(Object v) {
        if (v instanceof ZonedDateTime z) {
            return z.toString();
        }
        return String.valueOf(v);
    }
}
