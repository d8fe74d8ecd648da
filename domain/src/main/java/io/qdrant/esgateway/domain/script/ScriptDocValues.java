package io.qdrant.esgateway.domain.script;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.AbstractList;
import java.util.List;

/**
 * {@code doc['field']} in a score script: the field's doc values as a read-only list typed as Elasticsearch types
 * them ({@code Long} for integral numbers, {@code Double} for floating ones, {@code String} for keywords,
 * {@code Boolean}, {@code ZonedDateTime} in UTC for dates), with {@code value} (the first; Elasticsearch's error when
 * there is none), {@code size()}, {@code empty} and indexing.
 */
final class ScriptDocValues extends AbstractList<Object> {
    private final Object[] values;

    ScriptDocValues(Object[] values) {
        this.values = values;
    }

    static ScriptDocValues ofKeywords(List<String> keywords) {
        return new ScriptDocValues(keywords.toArray());
    }

    static ScriptDocValues ofLongs(long[] longs) {
        Object[] out = new Object[longs.length];
        for (int i = 0; i < longs.length; i++) {
            out[i] = longs[i];
        }
        return new ScriptDocValues(out);
    }

    static ScriptDocValues ofDoubles(double[] doubles) {
        Object[] out = new Object[doubles.length];
        for (int i = 0; i < doubles.length; i++) {
            out[i] = doubles[i];
        }
        return new ScriptDocValues(out);
    }

    static ScriptDocValues ofBooleans(long[] longs) {
        Object[] out = new Object[longs.length];
        for (int i = 0; i < longs.length; i++) {
            out[i] = longs[i] != 0;
        }
        return new ScriptDocValues(out);
    }

    static ScriptDocValues ofDates(long[] millis) {
        Object[] out = new Object[millis.length];
        for (int i = 0; i < millis.length; i++) {
            out[i] = ZonedDateTime.ofInstant(Instant.ofEpochMilli(millis[i]), ZoneOffset.UTC);
        }
        return new ScriptDocValues(out);
    }

    @Override
    public Object get(int index) {
        if (index < 0 || index >= values.length) {
            if (values.length == 0) {
                throw new PainlessRuntimeError("illegal_state_exception", "A document doesn't have a value for a"
                        + " field! Use doc[<field>].size()==0 to check if a document is missing a field!");
            }
            throw new PainlessRuntimeError("index_out_of_bounds_exception", "Index " + index
                    + " out of bounds for length " + values.length);
        }
        return values[index];
    }

    /** The first value: Elasticsearch's {@code getValue()}. */
    Object value() {
        if (values.length == 0) {
            throw new PainlessRuntimeError("illegal_state_exception", "A document doesn't have a value for a field!"
                    + " Use doc[<field>].size()==0 to check if a document is missing a field!");
        }
        return values[0];
    }

    @Override
    public int size() {
        return values.length;
    }

    /** {@code doc['vector']}: a dense vector field's value. */
    static final class Vector {
        final String field;
        final float[] values;

        Vector(String field, float[] values) {
            this.field = field;
            this.values = values;
        }

        float[] require() {
            if (values == null) {
                throw PainlessRuntimeError.illegalArgument("A document doesn't have a value for a vector field!");
            }
            return values;
        }

        double magnitude() {
            float[] v = require();
            double sum = 0;
            for (float x : v) {
                sum += (double) x * x;
            }
            return (float) Math.sqrt(sum);
        }
    }
}
