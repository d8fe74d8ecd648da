package io.qdrant.esgateway.domain.script;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The exception types a script may name, construct, throw and catch ({@code try}/{@code catch}, {@code throw}): the
 * {@code Exception} subtypes of Painless's {@code java.lang} and {@code java.util} whitelists, with their Java
 * hierarchy. Painless's own errors (the loop counter, a stack overflow) are no {@code Exception} and stay uncaught.
 */
final class ScriptExceptions {
    private ScriptExceptions() {
    }

    /** A caught or constructed exception as a script sees it: its simple type name and message. */
    record Value(String type, String message) {
        @Override
        public String toString() {
            String name = javaName(type);
            return message == null ? name : name + ": " + message;
        }
    }

    /** Simple name → parent simple name (null for {@code Exception}, the root a script can catch). */
    private static final Map<String, String> PARENT = new LinkedHashMap<>();
    private static final Map<String, String> PACKAGE = new LinkedHashMap<>();

    private static void type(String name, String parent, String pkg) {
        PARENT.put(name, parent);
        PACKAGE.put(name, pkg);
    }

    static {
        type("Exception", null, "java.lang");
        type("RuntimeException", "Exception", "java.lang");
        type("ReflectiveOperationException", "Exception", "java.lang");
        type("ClassNotFoundException", "ReflectiveOperationException", "java.lang");
        type("IllegalAccessException", "ReflectiveOperationException", "java.lang");
        type("InstantiationException", "ReflectiveOperationException", "java.lang");
        type("NoSuchFieldException", "ReflectiveOperationException", "java.lang");
        type("NoSuchMethodException", "ReflectiveOperationException", "java.lang");
        type("CloneNotSupportedException", "Exception", "java.lang");
        type("InterruptedException", "Exception", "java.lang");
        type("ArithmeticException", "RuntimeException", "java.lang");
        type("ArrayStoreException", "RuntimeException", "java.lang");
        type("ClassCastException", "RuntimeException", "java.lang");
        type("IllegalArgumentException", "RuntimeException", "java.lang");
        type("IllegalMonitorStateException", "RuntimeException", "java.lang");
        type("IllegalStateException", "RuntimeException", "java.lang");
        type("IndexOutOfBoundsException", "RuntimeException", "java.lang");
        type("NegativeArraySizeException", "RuntimeException", "java.lang");
        type("NullPointerException", "RuntimeException", "java.lang");
        type("SecurityException", "RuntimeException", "java.lang");
        type("UnsupportedOperationException", "RuntimeException", "java.lang");
        type("IllegalThreadStateException", "IllegalArgumentException", "java.lang");
        type("NumberFormatException", "IllegalArgumentException", "java.lang");
        type("ArrayIndexOutOfBoundsException", "IndexOutOfBoundsException", "java.lang");
        type("StringIndexOutOfBoundsException", "IndexOutOfBoundsException", "java.lang");
        type("ConcurrentModificationException", "RuntimeException", "java.util");
        type("NoSuchElementException", "RuntimeException", "java.util");
        type("EmptyStackException", "RuntimeException", "java.util");
    }

    /** Every exception type name with its Java class name, for {@link Type#REFERENCE}. */
    static Map<String, String> javaNames() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String name : PARENT.keySet()) {
            out.put(name, javaName(name));
        }
        return out;
    }

    static boolean isException(String type) {
        return PARENT.containsKey(type);
    }

    static String javaName(String type) {
        return PACKAGE.getOrDefault(type, "java.lang") + "." + type;
    }

    /** Whether {@code type} is {@code ancestor} or one of its subtypes. */
    static boolean isA(String type, String ancestor) {
        for (String t = type; t != null; t = PARENT.get(t)) {
            if (t.equals(ancestor)) {
                return true;
            }
        }
        return false;
    }

    /** The script-visible exception for a failure, or null when a script cannot catch it (Painless's errors). */
    static Value caught(RuntimeException e) {
        if (e instanceof PainlessRuntimeError p) {
            String type = fromEsType(p.esType);
            return type == null ? null : new Value(type, p.getMessage());
        }
        for (Class<?> c = e.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            if (PARENT.containsKey(c.getSimpleName()) && c.getName().equals(javaName(c.getSimpleName()))) {
                return new Value(c.getSimpleName(), e.getMessage());
            }
        }
        return new Value("RuntimeException", e.getMessage());
    }

    /** The failure a {@code throw} raises, typed as Elasticsearch names the exception. */
    static PainlessRuntimeError toThrow(Value v) {
        return new PainlessRuntimeError(esType(v.type), v.message);
    }

    static String esType(String type) {
        return type.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
    }

    private static String fromEsType(String esType) {
        StringBuilder out = new StringBuilder();
        for (String part : esType.split("_")) {
            if (!part.isEmpty()) {
                out.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
            }
        }
        String name = out.toString();
        return PARENT.containsKey(name) ? name : null;
    }
}
