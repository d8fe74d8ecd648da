package io.qdrant.esgateway.adapter.out.qdrant.read;

import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.FieldMapping.NumberType;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The values of a sort candidate's projected source read straight from it, without {@link DocumentParser}, in the one
 * case where that is plainly the parser's answer: every sort field is a top-level {@code long}, {@code integer},
 * {@code short} or {@code byte} field, and every member of the source is one of them holding a JSON integer in the
 * field's range. Then the parser's values are exactly one {@link IndexedValue.LongValue} per member, in member order
 * (no coercion applies: no string, decimal, array, {@code null}, object or out-of-range number, no dotted key, no
 * multi-field). Anything else gives {@code null} and the caller parses as before.
 */
final class PlainSortValues {
    private final Map<String, NumberType> fields;

    private PlainSortValues(Map<String, NumberType> fields) {
        this.fields = fields;
    }

    /**
     * For the sort's source paths {@code paths} of an index with {@code mappings}: the reader, or {@code null} when a
     * path is not a top-level integral number field.
     */
    static PlainSortValues of(Mappings mappings, Set<String> paths) {
        if (paths.isEmpty()) {
            return null;
        }
        Map<String, NumberType> fields = new HashMap<>();
        for (String path : paths) {
            if (path.indexOf('.') >= 0 || !(mappings.properties().get(path) instanceof FieldMapping.NumberField n)) {
                return null;
            }
            switch (n.numberType()) {
                case LONG, INTEGER, SHORT, BYTE -> fields.put(path, n.numberType());
                case DOUBLE, FLOAT, HALF_FLOAT -> {
                    return null;
                }
            }
        }
        return new PlainSortValues(fields);
    }

    /** {@code DocumentParser.parse(mappings, source, id).values()} when the source is plain, else {@code null}. */
    List<IndexedValue> values(JsonObject source) {
        List<IndexedValue> values = new ArrayList<>(source.members().size());
        for (Map.Entry<String, JsonValue> member : source.members().entrySet()) {
            NumberType type = fields.get(member.getKey());
            if (type == null || !(member.getValue() instanceof JsonValue.JsonNumber n)
                    || !(n.value() instanceof Long l) || !inRange(type, l)) {
                return null;
            }
            values.add(new IndexedValue.LongValue(member.getKey(), l));
        }
        return values;
    }

    private static boolean inRange(NumberType type, long v) {
        return switch (type) {
            case LONG -> true;
            case INTEGER -> v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE;
            case SHORT -> v >= Short.MIN_VALUE && v <= Short.MAX_VALUE;
            case BYTE -> v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE;
            case DOUBLE, FLOAT, HALF_FLOAT -> false;
        };
    }
}
