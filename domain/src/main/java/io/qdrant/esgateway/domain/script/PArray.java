package io.qdrant.esgateway.domain.script;

import java.util.Arrays;

/** A script array: its element type (every store converts to it) and its values. */
final class PArray {
    private final Type elementType;
    final Object[] values;

    PArray(Type elementType, int length) {
        if (length < 0) {
            throw new NegativeArraySizeException(String.valueOf(length));
        }
        this.elementType = elementType;
        this.values = new Object[length];
        Object zero = zero(elementType);
        if (zero != null) {
            Arrays.fill(values, zero);
        }
    }

    Type elementType() {
        return elementType;
    }

    int length() {
        return values.length;
    }

    Object get(Object index) {
        return values[checked(index)];
    }

    void set(Object index, Object value) {
        values[checked(index)] = Ops.convert(value, elementType, false);
    }

    private int checked(Object index) {
        int i = Ops.index(index, values.length);
        if (i < 0 || i >= values.length) {
            throw new ArrayIndexOutOfBoundsException("Index " + Ops.intOf(index) + " out of bounds for length "
                    + values.length);
        }
        return i;
    }

    static Object zero(Type t) {
        return switch (t.name()) {
            case "boolean" -> Boolean.FALSE;
            case "byte" -> (byte) 0;
            case "short" -> (short) 0;
            case "char" -> (char) 0;
            case "int" -> 0;
            case "long" -> 0L;
            case "float" -> 0f;
            case "double" -> 0d;
            default -> null;
        };
    }

    @Override
    public String toString() {
        return "[" + elementType.name() + "@" + Integer.toHexString(System.identityHashCode(this));
    }
}
