package io.qdrant.esgateway.domain.document;

/**
 * One value of a document as the backend must index it, already checked against and converted to its mapped type.
 * {@code field} is the full dotted path ({@code author.name}, {@code title.keyword} for a multi-field). A field with
 * several values (a JSON array) yields several values with the same path, in document order. The set is closed:
 * backends switch over it without a {@code default}.
 */
public sealed interface IndexedValue {

    String field();

    /** A {@code keyword} value (not indexed past {@code ignore_above}: such values are not produced at all). */
    record Keyword(String field, String value) implements IndexedValue {
    }

    /** A {@code text} value, to be analysed by the standard analyzer. */
    record Text(String field, String value) implements IndexedValue {
    }

    /** A {@code long}, {@code integer}, {@code short} or {@code byte} value (range already checked). */
    record LongValue(String field, long value) implements IndexedValue {
    }

    /** A {@code double} value. */
    record DoubleValue(String field, double value) implements IndexedValue {
    }

    /** A {@code float} or {@code half_float} value, already rounded to the type's precision. */
    record FloatValue(String field, float value) implements IndexedValue {
    }

    record BooleanValue(String field, boolean value) implements IndexedValue {
    }

    /** A {@code date}, as milliseconds since the epoch (UTC). */
    record DateValue(String field, long epochMillis) implements IndexedValue {
    }

    /** A {@code dense_vector}, with exactly the mapped number of dimensions. */
    record Vector(String field, float[] values) implements IndexedValue {
        @Override
        public boolean equals(Object o) {
            return o instanceof Vector v && v.field.equals(field) && java.util.Arrays.equals(v.values, values);
        }

        @Override
        public int hashCode() {
            return field.hashCode() * 31 + java.util.Arrays.hashCode(values);
        }

        @Override
        public String toString() {
            return "Vector[" + field + "=" + java.util.Arrays.toString(values) + "]";
        }
    }
}
