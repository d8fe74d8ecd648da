package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.time.DateFormat;

/** A field an aggregation reads, and how its values come (see {@link AggregationDoc}). */
public record FieldRef(String name, ValueKind kind, DateFormat format) {

    public FieldRef(String name, ValueKind kind) {
        this(name, kind, DateFormat.defaultFormat());
    }

    /** How a field's values are read and rendered. */
    public enum ValueKind {
        /** {@link AggregationDoc#keywords}. */
        KEYWORD,
        /** long, integer, short, byte: {@link AggregationDoc#longs}. */
        LONG,
        /** double: {@link AggregationDoc#doubles}. */
        DOUBLE,
        /** float and half_float: {@link AggregationDoc#doubles} (widened from the float value). */
        FLOAT,
        /** date: epoch millis from {@link AggregationDoc#longs}; keys also rendered as strings. */
        DATE,
        /** boolean: 0/1 from {@link AggregationDoc#longs}; keys rendered as {@code "false"}/{@code "true"}. */
        BOOLEAN,
        /** Not mapped in this index: no document has values. */
        UNMAPPED;

        public boolean numeric() {
            return this == LONG || this == DOUBLE || this == FLOAT || this == DATE || this == BOOLEAN;
        }
    }

    /**
     * The field as {@code index}'s mapping has it. A text field (or an object or vector) cannot be aggregated: ES's
     * {@code illegal_argument_exception}, which the caller reports as a failure of that index.
     */
    public static FieldRef of(String index, String field, Mappings mappings) {
        FieldMapping mapping = mappings.field(field).orElse(null);
        if (mapping == null) {
            return new FieldRef(field, ValueKind.UNMAPPED);
        }
        if (!mapping.options().docValues()) {
            throw GatewayException.noDocValues(field, mapping.type());
        }
        ValueKind kind = switch (mapping) {
            case FieldMapping.KeywordField k -> ValueKind.KEYWORD;
            case FieldMapping.NumberField n -> n.numberType().isIntegral() ? ValueKind.LONG
                    : n.numberType() == FieldMapping.NumberType.DOUBLE ? ValueKind.DOUBLE : ValueKind.FLOAT;
            case FieldMapping.DateField d -> ValueKind.DATE;
            case FieldMapping.BooleanField b -> ValueKind.BOOLEAN;
            case FieldMapping.TextField t -> throw GatewayException.fielddataDisabled(index, field);
            case FieldMapping.DenseVectorField v -> throw GatewayException.illegalArgument("Field [" + field
                    + "] of type [dense_vector] is not supported for aggregation");
            case FieldMapping.ObjectField o -> throw GatewayException.illegalArgument("Field [" + field
                    + "] of type [object] is not supported for aggregation");
        };
        DateFormat format = mapping instanceof FieldMapping.DateField d
                ? DateFormat.of(d.format().orElse(DateFormat.DEFAULT_PATTERN)) : DateFormat.defaultFormat();
        return new FieldRef(field, kind, format);
    }
}
