package io.qdrant.esgateway.domain.script;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Painless's operators and conversions on runtime values (the {@code def} semantics; typed code agrees). */
final class Ops {
    private Ops() {
    }

    /** Numeric rank of a runtime value: int-like 0, long 1, float 2, double 3, not a number -1. */
    static int rank(Object v) {
        if (v instanceof Integer || v instanceof Short || v instanceof Byte || v instanceof Character) {
            return 0;
        }
        if (v instanceof Long) {
            return 1;
        }
        if (v instanceof Float) {
            return 2;
        }
        if (v instanceof Double) {
            return 3;
        }
        return -1;
    }

    static boolean isNumber(Object v) {
        return rank(v) >= 0;
    }

    static int intOf(Object v) {
        return v instanceof Character c ? c : ((Number) v).intValue();
    }

    static long longOf(Object v) {
        return v instanceof Character c ? c : ((Number) v).longValue();
    }

    static float floatOf(Object v) {
        return v instanceof Character c ? c : ((Number) v).floatValue();
    }

    static double doubleOf(Object v) {
        return v instanceof Character c ? c : ((Number) v).doubleValue();
    }

    static String typeName(Object v) {
        if (v instanceof ScriptExceptions.Value e) {
            return ScriptExceptions.javaName(e.type());
        }
        return v == null ? "null" : v.getClass().getName();
    }

    private static String opName(String op) {
        return op;
    }

    private static PainlessRuntimeError cannotApply(String op, Object a, Object b) {
        return PainlessRuntimeError.classCast("Cannot apply [" + opName(op) + "] operation to types ["
                + typeName(a) + "] and [" + typeName(b) + "].");
    }

    private static void notNull(Object a, Object b) {
        if (a == null || b == null) {
            throw PainlessRuntimeError.nullPointer("Cannot apply an operation to a null value");
        }
    }

    static Object binary(String op, Object a, Object b) {
        if (op.equals("+") && (a instanceof String || b instanceof String)) {
            return str(a) + str(b);
        }
        return switch (op) {
            case "+", "-", "*", "/", "%" -> arithmetic(op, a, b);
            case "&", "|", "^" -> bitwise(op, a, b);
            case "<<", ">>", ">>>" -> shift(op, a, b);
            default -> throw new IllegalStateException(op);
        };
    }

    static Object arithmetic(String op, Object a, Object b) {
        notNull(a, b);
        int ra = rank(a);
        int rb = rank(b);
        if (ra < 0 || rb < 0) {
            throw cannotApply(op, a, b);
        }
        int r = Math.max(ra, rb);
        switch (r) {
            case 0 -> {
                int x = intOf(a);
                int y = intOf(b);
                return switch (op) {
                    case "+" -> x + y;
                    case "-" -> x - y;
                    case "*" -> x * y;
                    case "/" -> x / y;
                    default -> x % y;
                };
            }
            case 1 -> {
                long x = longOf(a);
                long y = longOf(b);
                return switch (op) {
                    case "+" -> x + y;
                    case "-" -> x - y;
                    case "*" -> x * y;
                    case "/" -> x / y;
                    default -> x % y;
                };
            }
            case 2 -> {
                float x = floatOf(a);
                float y = floatOf(b);
                return switch (op) {
                    case "+" -> x + y;
                    case "-" -> x - y;
                    case "*" -> x * y;
                    case "/" -> x / y;
                    default -> x % y;
                };
            }
            default -> {
                double x = doubleOf(a);
                double y = doubleOf(b);
                return switch (op) {
                    case "+" -> x + y;
                    case "-" -> x - y;
                    case "*" -> x * y;
                    case "/" -> x / y;
                    default -> x % y;
                };
            }
        }
    }

    static Object bitwise(String op, Object a, Object b) {
        notNull(a, b);
        if (a instanceof Boolean x && b instanceof Boolean y) {
            return switch (op) {
                case "&" -> x & y;
                case "|" -> x | y;
                default -> x ^ y;
            };
        }
        int ra = rank(a);
        int rb = rank(b);
        if (ra < 0 || rb < 0 || ra > 1 || rb > 1) {
            throw cannotApply(op, a, b);
        }
        if (Math.max(ra, rb) == 0) {
            int x = intOf(a);
            int y = intOf(b);
            return switch (op) {
                case "&" -> x & y;
                case "|" -> x | y;
                default -> x ^ y;
            };
        }
        long x = longOf(a);
        long y = longOf(b);
        return switch (op) {
            case "&" -> x & y;
            case "|" -> x | y;
            default -> x ^ y;
        };
    }

    static Object shift(String op, Object a, Object b) {
        notNull(a, b);
        int ra = rank(a);
        int rb = rank(b);
        if (ra < 0 || rb < 0 || ra > 1 || rb > 1) {
            throw cannotApply(op, a, b);
        }
        long by = longOf(b);
        if (ra == 0) {
            int x = intOf(a);
            return switch (op) {
                case "<<" -> x << by;
                case ">>" -> x >> by;
                default -> x >>> by;
            };
        }
        long x = longOf(a);
        return switch (op) {
            case "<<" -> x << by;
            case ">>" -> x >> by;
            default -> x >>> by;
        };
    }

    static Object negate(Object a) {
        if (a == null) {
            throw PainlessRuntimeError.nullPointer("Cannot negate a null value");
        }
        return switch (rank(a)) {
            case 0 -> -intOf(a);
            case 1 -> -longOf(a);
            case 2 -> -floatOf(a);
            case 3 -> -doubleOf(a);
            default -> throw PainlessRuntimeError.classCast("Cannot apply [-] operation to type [" + typeName(a)
                    + "].");
        };
    }

    static Object plus(Object a) {
        if (a == null) {
            throw PainlessRuntimeError.nullPointer("Cannot apply [+] to a null value");
        }
        return switch (rank(a)) {
            case 0 -> intOf(a);
            case 1, 2, 3 -> a;
            default -> throw PainlessRuntimeError.classCast("Cannot apply [+] operation to type [" + typeName(a)
                    + "].");
        };
    }

    static Object complement(Object a) {
        if (a == null) {
            throw PainlessRuntimeError.nullPointer("Cannot apply [~] to a null value");
        }
        return switch (rank(a)) {
            case 0 -> ~intOf(a);
            case 1 -> ~longOf(a);
            default -> throw PainlessRuntimeError.classCast("Cannot apply [~] operation to type [" + typeName(a)
                    + "].");
        };
    }

    static boolean bool(Object v) {
        if (v instanceof Boolean b) {
            return b;
        }
        if (v == null) {
            throw PainlessRuntimeError.nullPointer("Cannot unbox a null value to [boolean]");
        }
        throw PainlessRuntimeError.classCast("Cannot cast " + typeName(v) + " to java.lang.Boolean");
    }

    /** Painless's {@code ==}: numbers by value after promotion, else {@code equals}. */
    static boolean eq(Object a, Object b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null) {
            return false;
        }
        int ra = rank(a);
        int rb = rank(b);
        if (ra >= 0 && rb >= 0) {
            return switch (Math.max(ra, rb)) {
                case 0 -> intOf(a) == intOf(b);
                case 1 -> longOf(a) == longOf(b);
                case 2 -> floatOf(a) == floatOf(b);
                default -> doubleOf(a) == doubleOf(b);
            };
        }
        if (a instanceof Character c && b instanceof String s || b instanceof Character c2 && a instanceof String s2) {
            return false;
        }
        return a.equals(b);
    }

    /** Painless's {@code ===}: identity, primitives by value. */
    static boolean same(Object a, Object b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null) {
            return false;
        }
        if (a.getClass() == b.getClass() && (isNumber(a) || a instanceof Boolean)) {
            return a.equals(b);
        }
        return false;
    }

    static boolean compare(String op, Object a, Object b) {
        notNull(a, b);
        int ra = rank(a);
        int rb = rank(b);
        if (ra < 0 || rb < 0) {
            throw cannotApply(op, a, b);
        }
        int c;
        switch (Math.max(ra, rb)) {
            case 0 -> c = Integer.compare(intOf(a), intOf(b));
            case 1 -> c = Long.compare(longOf(a), longOf(b));
            case 2 -> {
                float x = floatOf(a);
                float y = floatOf(b);
                return switch (op) {
                    case "<" -> x < y;
                    case "<=" -> x <= y;
                    case ">" -> x > y;
                    default -> x >= y;
                };
            }
            default -> {
                double x = doubleOf(a);
                double y = doubleOf(b);
                return switch (op) {
                    case "<" -> x < y;
                    case "<=" -> x <= y;
                    case ">" -> x > y;
                    default -> x >= y;
                };
            }
        }
        return switch (op) {
            case "<" -> c < 0;
            case "<=" -> c <= 0;
            case ">" -> c > 0;
            default -> c >= 0;
        };
    }

    /** Java's string conversion, as string concatenation does it. */
    static String str(Object v) {
        if (v instanceof PArray a) {
            return a.toString();
        }
        return String.valueOf(v);
    }

    /** Whether {@code v} is an instance of the script type {@code t}. */
    static boolean instanceOf(Object v, Type t) {
        if (v == null) {
            return false;
        }
        if (t.isArray()) {
            return v instanceof PArray a && a.elementType().equals(t.element());
        }
        return switch (t.name()) {
            case "def", "Object" -> true;
            case "boolean", "Boolean" -> v instanceof Boolean;
            case "byte", "Byte" -> v instanceof Byte;
            case "short", "Short" -> v instanceof Short;
            case "char", "Character" -> v instanceof Character;
            case "int", "Integer" -> v instanceof Integer;
            case "long", "Long" -> v instanceof Long;
            case "float", "Float" -> v instanceof Float;
            case "double", "Double" -> v instanceof Double;
            case "Number" -> v instanceof Number;
            case "String" -> v instanceof String;
            case "CharSequence" -> v instanceof CharSequence;
            case "Comparable" -> v instanceof Comparable;
            case "StringBuilder" -> v instanceof StringBuilder;
            case "Iterable" -> v instanceof Iterable;
            case "Collection" -> v instanceof Collection;
            case "List" -> v instanceof List;
            case "ArrayList" -> v instanceof java.util.ArrayList;
            case "Set" -> v instanceof java.util.Set;
            case "HashSet" -> v instanceof java.util.HashSet;
            case "Map" -> v instanceof Map;
            case "HashMap" -> v instanceof java.util.HashMap;
            case "LinkedHashMap" -> v instanceof java.util.LinkedHashMap;
            case "Map.Entry" -> v instanceof Map.Entry;
            case "Iterator" -> v instanceof java.util.Iterator;
            case "ZonedDateTime" -> v instanceof java.time.ZonedDateTime;
            case "Instant" -> v instanceof java.time.Instant;
            default -> v instanceof ScriptExceptions.Value e && ScriptExceptions.isA(e.type(), t.name());
        };
    }

    /**
     * Converts {@code v} to type {@code t}: implicit conversions widen only (and unbox from {@code def} values of a
     * narrower or equal type); explicit casts also narrow numbers.
     */
    static Object convert(Object v, Type t, boolean explicit) {
        if (t.isDef() || t.equals(Type.OBJECT)) {
            return v;
        }
        if (v == null) {
            if (t.isPrimitive()) {
                throw PainlessRuntimeError.nullPointer("Cannot cast null to a primitive type [" + t.name() + "]");
            }
            return null;
        }
        int target = t.numericRank();
        if (t.isNumericPrimitive() || isBoxedNumber(t)) {
            int r = rank(v);
            if (r < 0) {
                throw castError(v, t, explicit);
            }
            String n = t.isPrimitive() ? t.name() : unboxedName(t);
            if (!explicit) {
                int tr = Type.primitive(n).numericRank();
                boolean ok = switch (n) {
                    case "byte" -> v instanceof Byte;
                    case "short" -> v instanceof Short || v instanceof Byte;
                    case "char" -> v instanceof Character;
                    case "int" -> v instanceof Integer || v instanceof Short || v instanceof Byte
                            || v instanceof Character;
                    default -> r <= tr;
                };
                if (!ok || (!t.isPrimitive() && !sameBox(v, n))) {
                    throw castError(v, t, false);
                }
            }
            return switch (n) {
                case "byte" -> (byte) longOf(v);
                case "short" -> (short) longOf(v);
                case "char" -> (char) longOf(v);
                case "int" -> r >= 2 ? (int) doubleOf(v) : (int) longOf(v);
                case "long" -> r >= 2 ? (long) doubleOf(v) : longOf(v);
                case "float" -> floatOf(v);
                default -> doubleOf(v);
            };
        }
        if (target < 0 && (t.name().equals("boolean") || t.name().equals("Boolean"))) {
            if (v instanceof Boolean) {
                return v;
            }
            throw castError(v, t, explicit);
        }
        if (t.name().equals("char") || t.name().equals("Character")) {
            if (v instanceof Character) {
                return v;
            }
            if (explicit && v instanceof String s && s.length() == 1) {
                return s.charAt(0);
            }
            throw castError(v, t, explicit);
        }
        if (t.name().equals("String") && v instanceof Character c && explicit) {
            return String.valueOf(c);
        }
        if (t.name().equals("Number") && v instanceof Number) {
            return v;
        }
        if (!instanceOf(v, t)) {
            throw castError(v, t, explicit);
        }
        return v;
    }

    private static boolean isBoxedNumber(Type t) {
        return switch (t.name()) {
            case "Byte", "Short", "Integer", "Long", "Float", "Double" -> true;
            default -> false;
        };
    }

    private static boolean sameBox(Object v, String primitive) {
        return switch (primitive) {
            case "byte" -> v instanceof Byte;
            case "short" -> v instanceof Short;
            case "int" -> v instanceof Integer;
            case "long" -> v instanceof Long;
            case "float" -> v instanceof Float;
            default -> v instanceof Double;
        };
    }

    private static String unboxedName(Type t) {
        return switch (t.name()) {
            case "Byte" -> "byte";
            case "Short" -> "short";
            case "Integer" -> "int";
            case "Long" -> "long";
            case "Float" -> "float";
            default -> "double";
        };
    }

    private static PainlessRuntimeError castError(Object v, Type t, boolean explicit) {
        String from = typeName(v);
        if (explicit) {
            return PainlessRuntimeError.classCast("cannot explicitly cast def [" + from + "] to " + t.javaName());
        }
        return PainlessRuntimeError.classCast("Cannot cast " + from + " to " + t.javaName());
    }

    /** A compile-time check of a conversion between two static types; null when allowed. */
    static String staticCastProblem(Type from, Type to, boolean explicit) {
        if (from.isDef() || to.isDef() || from.equals(to) || to.equals(Type.OBJECT) || from.equals(Type.VOID)) {
            return null;
        }
        if (from.isNumericPrimitive() && to.isNumericPrimitive()) {
            if (explicit || from.numericRank() < to.numericRank()
                    || (from.numericRank() == to.numericRank() && widensWithinInt(from, to))) {
                return null;
            }
            return "Cannot cast from [" + from.javaName() + "] to [" + to.javaName() + "].";
        }
        if (from.isPrimitive() != to.isPrimitive() || from.equals(Type.STRING) != to.equals(Type.STRING)) {
            if (from.isPrimitive() && isBoxOf(to, from)) {
                return null;
            }
            if (to.isPrimitive() && isBoxOf(from, to)) {
                return null;
            }
            if (to.name().equals("Number") && from.isNumericPrimitive()) {
                return null;
            }
            if (from.isPrimitive() || to.isPrimitive() || from.equals(Type.STRING) || to.equals(Type.STRING)) {
                if (explicit && from.equals(Type.STRING) && to.name().equals("char")) {
                    return null;
                }
                return "Cannot cast from [" + from.javaName() + "] to [" + to.javaName() + "].";
            }
        }
        return null;
    }

    private static boolean widensWithinInt(Type from, Type to) {
        return switch (from.name() + ">" + to.name()) {
            case "byte>short", "byte>int", "short>int", "char>int" -> true;
            default -> false;
        };
    }

    private static boolean isBoxOf(Type box, Type primitive) {
        return switch (primitive.name()) {
            case "boolean" -> box.name().equals("Boolean");
            case "byte" -> box.name().equals("Byte");
            case "short" -> box.name().equals("Short");
            case "char" -> box.name().equals("Character");
            case "int" -> box.name().equals("Integer");
            case "long" -> box.name().equals("Long");
            case "float" -> box.name().equals("Float");
            case "double" -> box.name().equals("Double");
            default -> false;
        };
    }

    /** Normalises a negative list or array index (counting from the end), as Painless does. */
    static int index(Object idx, int size) {
        if (!(idx instanceof Integer || idx instanceof Short || idx instanceof Byte || idx instanceof Character)) {
            if (idx == null) {
                throw PainlessRuntimeError.nullPointer("Cannot use a null index");
            }
            throw PainlessRuntimeError.classCast("Cannot cast " + typeName(idx) + " to java.lang.Integer");
        }
        int i = intOf(idx);
        return i < 0 ? i + size : i;
    }

    static boolean equalsObjects(Object a, Object b) {
        return Objects.equals(a, b);
    }
}
