package io.qdrant.esgateway.domain.script;

import java.util.Map;

/**
 * A Painless type as the interpreter knows it: {@code def}, a primitive, a whitelisted reference type, or an array.
 * Values are plain Java objects (boxed primitives, {@link java.util.List}, {@link java.util.Map}, {@link PArray}).
 */
record Type(String name, Type element) {
    static final Type DEF = new Type("def", null);
    static final Type VOID = new Type("void", null);
    static final Type BOOLEAN = new Type("boolean", null);
    static final Type BYTE = new Type("byte", null);
    static final Type SHORT = new Type("short", null);
    static final Type CHAR = new Type("char", null);
    static final Type INT = new Type("int", null);
    static final Type LONG = new Type("long", null);
    static final Type FLOAT = new Type("float", null);
    static final Type DOUBLE = new Type("double", null);
    static final Type STRING = new Type("String", null);
    static final Type MAP = new Type("Map", null);
    static final Type OBJECT = new Type("Object", null);

    /** Every type name a script may use, with its Java class name (for messages and {@code instanceof}). */
    static final Map<String, String> REFERENCE = withExceptions(Map.ofEntries(
            Map.entry("Object", "java.lang.Object"), Map.entry("String", "java.lang.String"),
            Map.entry("Number", "java.lang.Number"), Map.entry("Integer", "java.lang.Integer"),
            Map.entry("Long", "java.lang.Long"), Map.entry("Double", "java.lang.Double"),
            Map.entry("Float", "java.lang.Float"), Map.entry("Short", "java.lang.Short"),
            Map.entry("Byte", "java.lang.Byte"), Map.entry("Boolean", "java.lang.Boolean"),
            Map.entry("Character", "java.lang.Character"), Map.entry("CharSequence", "java.lang.CharSequence"),
            Map.entry("Comparable", "java.lang.Comparable"), Map.entry("Iterable", "java.lang.Iterable"),
            Map.entry("Math", "java.lang.Math"), Map.entry("StrictMath", "java.lang.StrictMath"),
            Map.entry("System", "java.lang.System"), Map.entry("StringBuilder", "java.lang.StringBuilder"),
            Map.entry("Collection", "java.util.Collection"), Map.entry("List", "java.util.List"),
            Map.entry("ArrayList", "java.util.ArrayList"), Map.entry("Map", "java.util.Map"),
            Map.entry("HashMap", "java.util.HashMap"), Map.entry("LinkedHashMap", "java.util.LinkedHashMap"),
            Map.entry("Set", "java.util.Set"), Map.entry("HashSet", "java.util.HashSet"),
            Map.entry("Collections", "java.util.Collections"), Map.entry("Objects", "java.util.Objects"),
            Map.entry("Iterator", "java.util.Iterator"), Map.entry("Map.Entry", "java.util.Map$Entry"),
            Map.entry("ZonedDateTime", "java.time.ZonedDateTime"), Map.entry("Instant", "java.time.Instant")));

    private static Map<String, String> withExceptions(Map<String, String> base) {
        Map<String, String> all = new java.util.HashMap<>(base);
        all.putAll(ScriptExceptions.javaNames());
        return Map.copyOf(all);
    }

    static Type primitive(String name) {
        return switch (name) {
            case "def" -> DEF;
            case "void" -> VOID;
            case "boolean" -> BOOLEAN;
            case "byte" -> BYTE;
            case "short" -> SHORT;
            case "char" -> CHAR;
            case "int" -> INT;
            case "long" -> LONG;
            case "float" -> FLOAT;
            case "double" -> DOUBLE;
            default -> null;
        };
    }

    /** The named type, or null when the name is no type. */
    static Type named(String name) {
        Type p = primitive(name);
        if (p != null) {
            return p;
        }
        return REFERENCE.containsKey(name) ? new Type(name, null) : null;
    }

    static Type arrayOf(Type element) {
        return new Type(element.name + "[]", element);
    }

    boolean isDef() {
        return this.equals(DEF);
    }

    boolean isArray() {
        return element != null;
    }

    boolean isPrimitive() {
        return element == null && switch (name) {
            case "boolean", "byte", "short", "char", "int", "long", "float", "double" -> true;
            default -> false;
        };
    }

    boolean isNumericPrimitive() {
        return isPrimitive() && !name.equals("boolean");
    }

    /** Rank in numeric promotion: byte/short/char/int 0, long 1, float 2, double 3; -1 if not numeric. */
    int numericRank() {
        return switch (name) {
            case "byte", "short", "char", "int" -> element == null ? 0 : -1;
            case "long" -> element == null ? 1 : -1;
            case "float" -> element == null ? 2 : -1;
            case "double" -> element == null ? 3 : -1;
            default -> -1;
        };
    }

    /** The name Painless's messages use: the primitive name or the Java class name. */
    String javaName() {
        if (isArray()) {
            return element.javaName() + "[]";
        }
        return isPrimitive() || isDef() ? name : REFERENCE.getOrDefault(name, name);
    }

    @Override
    public String toString() {
        return name;
    }
}
