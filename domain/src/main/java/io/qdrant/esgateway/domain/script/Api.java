package io.qdrant.esgateway.domain.script;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The whitelist: every method, static method, static field and constructor a script may call, by type and
 * {@code name/arity} as Painless resolves them. Anything not listed here does not exist for a script: there is no
 * reflection and no class lookup, so the sandbox holds by construction.
 */
final class Api {
    private Api() {
    }

    /** A whitelisted method: the receiver (null for static) and the evaluated arguments. */
    @FunctionalInterface
    interface Fn {
        Object call(Object receiver, Object[] args);
    }

    private static final Map<String, Map<String, Fn>> METHODS = new HashMap<>();
    private static final Map<String, Map<String, Fn>> STATICS = new HashMap<>();
    private static final Map<String, Map<String, Object>> FIELDS = new HashMap<>();
    private static final Map<String, Map<Integer, Fn>> CONSTRUCTORS = new HashMap<>();
    private static final Map<Class<?>, List<String>> CHAINS = new ConcurrentHashMap<>();

    private static void m(String type, String name, int arity, Fn fn) {
        METHODS.computeIfAbsent(type, k -> new HashMap<>()).put(name + "/" + arity, fn);
    }

    private static void s(String type, String name, int arity, Fn fn) {
        STATICS.computeIfAbsent(type, k -> new HashMap<>()).put(name + "/" + arity, fn);
    }

    private static void f(String type, String name, Object value) {
        FIELDS.computeIfAbsent(type, k -> new HashMap<>()).put(name, value);
    }

    private static void c(String type, int arity, Fn fn) {
        CONSTRUCTORS.computeIfAbsent(type, k -> new HashMap<>()).put(arity, fn);
    }

    static int i(Object v) {
        return (Integer) Ops.convert(v, Type.INT, false);
    }

    static double d(Object v) {
        return (Double) Ops.convert(v, Type.DOUBLE, false);
    }

    static long l(Object v) {
        return (Long) Ops.convert(v, Type.LONG, false);
    }

    static String str(Object v) {
        return (String) Ops.convert(v, Type.STRING, false);
    }

    @SuppressWarnings("unchecked")
    static Collection<Object> coll(Object v) {
        if (v instanceof Collection<?> c) {
            return (Collection<Object>) c;
        }
        throw PainlessRuntimeError.classCast("Cannot cast " + Ops.typeName(v) + " to java.util.Collection");
    }

    @SuppressWarnings("unchecked")
    static Map<Object, Object> map(Object v) {
        if (v instanceof Map<?, ?> m) {
            return (Map<Object, Object>) m;
        }
        throw PainlessRuntimeError.classCast("Cannot cast " + Ops.typeName(v) + " to java.util.Map");
    }

    static Lambda fn(Object v) {
        if (v instanceof Lambda l) {
            return l;
        }
        throw PainlessRuntimeError.classCast("Cannot cast " + Ops.typeName(v) + " to a function");
    }

    static Comparator<Object> comparator(Object v) {
        if (v == null) {
            return null;
        }
        Lambda l = fn(v);
        return (a, b) -> i(l.call(a, b));
    }

    static boolean test(Lambda l, Object v) {
        return Ops.bool(l.call(v));
    }

    static {
        // Object: every value
        m("Object", "equals", 1, (r, a) -> Ops.equalsObjects(r, a[0]));
        m("Object", "hashCode", 0, (r, a) -> r.hashCode());
        m("Object", "toString", 0, (r, a) -> Ops.str(r));

        // String
        m("String", "length", 0, (r, a) -> ((String) r).length());
        m("String", "charAt", 1, (r, a) -> ((String) r).charAt(i(a[0])));
        m("String", "substring", 1, (r, a) -> ((String) r).substring(i(a[0])));
        m("String", "substring", 2, (r, a) -> ((String) r).substring(i(a[0]), i(a[1])));
        m("String", "indexOf", 1, (r, a) -> ((String) r).indexOf(str(a[0])));
        m("String", "indexOf", 2, (r, a) -> ((String) r).indexOf(str(a[0]), i(a[1])));
        m("String", "lastIndexOf", 1, (r, a) -> ((String) r).lastIndexOf(str(a[0])));
        m("String", "lastIndexOf", 2, (r, a) -> ((String) r).lastIndexOf(str(a[0]), i(a[1])));
        m("String", "contains", 1, (r, a) -> ((String) r).contains(str(a[0])));
        m("String", "startsWith", 1, (r, a) -> ((String) r).startsWith(str(a[0])));
        m("String", "startsWith", 2, (r, a) -> ((String) r).startsWith(str(a[0]), i(a[1])));
        m("String", "endsWith", 1, (r, a) -> ((String) r).endsWith(str(a[0])));
        m("String", "toLowerCase", 0, (r, a) -> ((String) r).toLowerCase(java.util.Locale.ROOT));
        m("String", "toUpperCase", 0, (r, a) -> ((String) r).toUpperCase(java.util.Locale.ROOT));
        m("String", "trim", 0, (r, a) -> ((String) r).trim());
        m("String", "isEmpty", 0, (r, a) -> ((String) r).isEmpty());
        m("String", "equalsIgnoreCase", 1, (r, a) -> ((String) r).equalsIgnoreCase(str(a[0])));
        m("String", "compareTo", 1, (r, a) -> ((String) r).compareTo(str(a[0])));
        m("String", "compareToIgnoreCase", 1, (r, a) -> ((String) r).compareToIgnoreCase(str(a[0])));
        m("String", "replace", 2, (r, a) -> ((String) r).replace(charSeq(a[0]), charSeq(a[1])));
        m("String", "concat", 1, (r, a) -> ((String) r).concat(str(a[0])));
        m("String", "splitOnToken", 1, (r, a) -> splitOnToken((String) r, str(a[0]), -1));
        m("String", "splitOnToken", 2, (r, a) -> splitOnToken((String) r, str(a[0]), i(a[1])));
        m("String", "encodeBase64", 0, (r, a) -> Base64.getEncoder().encodeToString(
                ((String) r).getBytes(StandardCharsets.UTF_8)));
        m("String", "decodeBase64", 0, (r, a) -> new String(Base64.getDecoder().decode((String) r),
                StandardCharsets.UTF_8));
        m("String", "toCharArray", 0, (r, a) -> {
            String s = (String) r;
            PArray out = new PArray(Type.CHAR, s.length());
            for (int k = 0; k < s.length(); k++) {
                out.values[k] = s.charAt(k);
            }
            return out;
        });

        // numbers, booleans, characters
        for (String n : List.of("Number", "Integer", "Long", "Double", "Float", "Short", "Byte")) {
            m(n, "intValue", 0, (r, a) -> ((Number) r).intValue());
            m(n, "longValue", 0, (r, a) -> ((Number) r).longValue());
            m(n, "doubleValue", 0, (r, a) -> ((Number) r).doubleValue());
            m(n, "floatValue", 0, (r, a) -> ((Number) r).floatValue());
            m(n, "shortValue", 0, (r, a) -> ((Number) r).shortValue());
            m(n, "byteValue", 0, (r, a) -> ((Number) r).byteValue());
        }
        m("Integer", "compareTo", 1, (r, a) -> ((Integer) r).compareTo((Integer) Ops.convert(a[0],
                new Type("Integer", null), false)));
        m("Long", "compareTo", 1, (r, a) -> ((Long) r).compareTo((Long) Ops.convert(a[0],
                new Type("Long", null), false)));
        m("Double", "compareTo", 1, (r, a) -> ((Double) r).compareTo((Double) Ops.convert(a[0],
                new Type("Double", null), false)));
        m("Double", "isNaN", 0, (r, a) -> ((Double) r).isNaN());
        m("Double", "isInfinite", 0, (r, a) -> ((Double) r).isInfinite());
        m("Float", "isNaN", 0, (r, a) -> ((Float) r).isNaN());
        m("Boolean", "booleanValue", 0, (r, a) -> r);
        m("Boolean", "compareTo", 1, (r, a) -> ((Boolean) r).compareTo((Boolean) Ops.convert(a[0], Type.BOOLEAN,
                false)));
        m("Character", "charValue", 0, (r, a) -> r);

        // StringBuilder
        c("StringBuilder", 0, (r, a) -> new StringBuilder());
        c("StringBuilder", 1, (r, a) -> new StringBuilder(str(a[0])));
        m("StringBuilder", "append", 1, (r, a) -> ((StringBuilder) r).append(Ops.str(a[0])));
        m("StringBuilder", "length", 0, (r, a) -> ((StringBuilder) r).length());
        m("StringBuilder", "charAt", 1, (r, a) -> ((StringBuilder) r).charAt(i(a[0])));
        m("StringBuilder", "insert", 2, (r, a) -> ((StringBuilder) r).insert(i(a[0]), Ops.str(a[1])));
        m("StringBuilder", "reverse", 0, (r, a) -> ((StringBuilder) r).reverse());
        m("StringBuilder", "setLength", 1, (r, a) -> {
            ((StringBuilder) r).setLength(i(a[0]));
            return null;
        });
        m("StringBuilder", "deleteCharAt", 1, (r, a) -> ((StringBuilder) r).deleteCharAt(i(a[0])));

        // Iterable / Collection
        m("Iterable", "forEach", 1, (r, a) -> {
            Lambda l = fn(a[0]);
            for (Object o : (Iterable<?>) r) {
                l.call(o);
            }
            return null;
        });
        m("Iterable", "iterator", 0, (r, a) -> ((Iterable<?>) r).iterator());
        m("Collection", "add", 1, (r, a) -> coll(r).add(a[0]));
        m("Collection", "addAll", 1, (r, a) -> coll(r).addAll(coll(a[0])));
        m("Collection", "clear", 0, (r, a) -> {
            coll(r).clear();
            return null;
        });
        m("Collection", "contains", 1, (r, a) -> coll(r).contains(a[0]));
        m("Collection", "containsAll", 1, (r, a) -> coll(r).containsAll(coll(a[0])));
        m("Collection", "isEmpty", 0, (r, a) -> coll(r).isEmpty());
        m("Collection", "size", 0, (r, a) -> coll(r).size());
        m("Collection", "remove", 1, (r, a) -> coll(r).remove(a[0]));
        m("Collection", "removeAll", 1, (r, a) -> coll(r).removeAll(coll(a[0])));
        m("Collection", "retainAll", 1, (r, a) -> coll(r).retainAll(coll(a[0])));
        m("Collection", "removeIf", 1, (r, a) -> {
            Lambda l = fn(a[0]);
            return coll(r).removeIf(o -> test(l, o));
        });
        m("Collection", "any", 1, (r, a) -> {
            Lambda l = fn(a[0]);
            for (Object o : coll(r)) {
                if (test(l, o)) {
                    return true;
                }
            }
            return false;
        });
        m("Collection", "every", 1, (r, a) -> {
            Lambda l = fn(a[0]);
            for (Object o : coll(r)) {
                if (!test(l, o)) {
                    return false;
                }
            }
            return true;
        });
        m("Collection", "find", 1, (r, a) -> {
            Lambda l = fn(a[0]);
            for (Object o : coll(r)) {
                if (test(l, o)) {
                    return o;
                }
            }
            return null;
        });
        m("Collection", "findAll", 1, (r, a) -> {
            Lambda l = fn(a[0]);
            List<Object> out = new ArrayList<>();
            for (Object o : coll(r)) {
                if (test(l, o)) {
                    out.add(o);
                }
            }
            return out;
        });
        m("Collection", "collect", 1, (r, a) -> {
            Lambda l = fn(a[0]);
            List<Object> out = new ArrayList<>();
            for (Object o : coll(r)) {
                out.add(l.call(o));
            }
            return out;
        });
        m("Collection", "each", 1, (r, a) -> {
            Lambda l = fn(a[0]);
            for (Object o : coll(r)) {
                l.call(o);
            }
            return r;
        });
        m("Collection", "join", 1, (r, a) -> {
            StringBuilder sb = new StringBuilder();
            String sep = str(a[0]);
            boolean first = true;
            for (Object o : coll(r)) {
                if (!first) {
                    sb.append(sep);
                }
                first = false;
                sb.append(Ops.str(o));
            }
            return sb.toString();
        });
        m("Collection", "sum", 0, (r, a) -> {
            double sum = 0;
            for (Object o : coll(r)) {
                sum += d(o);
            }
            return sum;
        });

        // List
        c("ArrayList", 0, (r, a) -> new ArrayList<>());
        c("ArrayList", 1, (r, a) -> a[0] instanceof Collection<?> col ? new ArrayList<>(col)
                : new ArrayList<>(i(a[0])));
        m("List", "add", 2, (r, a) -> {
            ((List<Object>) r).add(i(a[0]), a[1]);
            return null;
        });
        m("List", "addAll", 2, (r, a) -> ((List<Object>) r).addAll(i(a[0]), coll(a[1])));
        m("List", "get", 1, (r, a) -> ((List<?>) r).get(i(a[0])));
        m("List", "set", 2, (r, a) -> ((List<Object>) r).set(i(a[0]), a[1]));
        m("List", "remove", 1, (r, a) -> ((List<?>) r).remove(i(a[0])));
        m("List", "indexOf", 1, (r, a) -> ((List<?>) r).indexOf(a[0]));
        m("List", "lastIndexOf", 1, (r, a) -> ((List<?>) r).lastIndexOf(a[0]));
        m("List", "subList", 2, (r, a) -> ((List<?>) r).subList(i(a[0]), i(a[1])));
        m("List", "sort", 1, (r, a) -> {
            ((List<Object>) r).sort(comparator(a[0]));
            return null;
        });
        m("List", "getLength", 0, (r, a) -> ((List<?>) r).size());

        // Set
        c("HashSet", 0, (r, a) -> new HashSet<>());
        c("HashSet", 1, (r, a) -> new HashSet<>(coll(a[0])));

        // Map
        c("HashMap", 0, (r, a) -> new HashMap<>());
        c("HashMap", 1, (r, a) -> new HashMap<>(map(a[0])));
        c("LinkedHashMap", 0, (r, a) -> new LinkedHashMap<>());
        c("LinkedHashMap", 1, (r, a) -> new LinkedHashMap<>(map(a[0])));
        m("Map", "get", 1, (r, a) -> map(r).get(a[0]));
        m("Map", "put", 2, (r, a) -> map(r).put(a[0], a[1]));
        m("Map", "containsKey", 1, (r, a) -> map(r).containsKey(a[0]));
        m("Map", "containsValue", 1, (r, a) -> map(r).containsValue(a[0]));
        m("Map", "remove", 1, (r, a) -> map(r).remove(a[0]));
        m("Map", "size", 0, (r, a) -> map(r).size());
        m("Map", "isEmpty", 0, (r, a) -> map(r).isEmpty());
        m("Map", "keySet", 0, (r, a) -> map(r).keySet());
        m("Map", "values", 0, (r, a) -> map(r).values());
        m("Map", "entrySet", 0, (r, a) -> map(r).entrySet());
        m("Map", "getOrDefault", 2, (r, a) -> map(r).getOrDefault(a[0], a[1]));
        m("Map", "putIfAbsent", 2, (r, a) -> map(r).putIfAbsent(a[0], a[1]));
        m("Map", "putAll", 1, (r, a) -> {
            map(r).putAll(map(a[0]));
            return null;
        });
        m("Map", "clear", 0, (r, a) -> {
            map(r).clear();
            return null;
        });
        m("Map", "replace", 2, (r, a) -> map(r).replace(a[0], a[1]));
        m("Map", "forEach", 1, (r, a) -> {
            Lambda l = fn(a[0]);
            for (Map.Entry<Object, Object> e : new ArrayList<>(map(r).entrySet())) {
                l.call(e.getKey(), e.getValue());
            }
            return null;
        });
        m("Map", "computeIfAbsent", 2, (r, a) -> {
            Lambda l = fn(a[1]);
            return map(r).computeIfAbsent(a[0], k -> l.call(k));
        });
        m("Map", "removeIf", 1, (r, a) -> {
            Lambda l = fn(a[0]);
            return map(r).entrySet().removeIf(e -> Ops.bool(l.call(e.getKey(), e.getValue())));
        });
        m("Map.Entry", "getKey", 0, (r, a) -> ((Map.Entry<?, ?>) r).getKey());
        m("Map.Entry", "getValue", 0, (r, a) -> ((Map.Entry<?, ?>) r).getValue());
        m("Map.Entry", "setValue", 1, (r, a) -> ((Map.Entry<Object, Object>) r).setValue(a[0]));
        m("Iterator", "hasNext", 0, (r, a) -> ((Iterator<?>) r).hasNext());
        m("Iterator", "next", 0, (r, a) -> ((Iterator<?>) r).next());
        m("Iterator", "remove", 0, (r, a) -> {
            ((Iterator<?>) r).remove();
            return null;
        });

        // Math (Painless whitelists the double forms)
        f("Math", "PI", Math.PI);
        f("Math", "E", Math.E);
        s("Math", "abs", 1, (r, a) -> Math.abs(d(a[0])));
        s("Math", "max", 2, (r, a) -> Math.max(d(a[0]), d(a[1])));
        s("Math", "min", 2, (r, a) -> Math.min(d(a[0]), d(a[1])));
        s("Math", "pow", 2, (r, a) -> Math.pow(d(a[0]), d(a[1])));
        s("Math", "sqrt", 1, (r, a) -> Math.sqrt(d(a[0])));
        s("Math", "cbrt", 1, (r, a) -> Math.cbrt(d(a[0])));
        s("Math", "floor", 1, (r, a) -> Math.floor(d(a[0])));
        s("Math", "ceil", 1, (r, a) -> Math.ceil(d(a[0])));
        s("Math", "rint", 1, (r, a) -> Math.rint(d(a[0])));
        s("Math", "round", 1, (r, a) -> Math.round(d(a[0])));
        s("Math", "log", 1, (r, a) -> Math.log(d(a[0])));
        s("Math", "log10", 1, (r, a) -> Math.log10(d(a[0])));
        s("Math", "log1p", 1, (r, a) -> Math.log1p(d(a[0])));
        s("Math", "exp", 1, (r, a) -> Math.exp(d(a[0])));
        s("Math", "expm1", 1, (r, a) -> Math.expm1(d(a[0])));
        s("Math", "sin", 1, (r, a) -> Math.sin(d(a[0])));
        s("Math", "cos", 1, (r, a) -> Math.cos(d(a[0])));
        s("Math", "tan", 1, (r, a) -> Math.tan(d(a[0])));
        s("Math", "asin", 1, (r, a) -> Math.asin(d(a[0])));
        s("Math", "acos", 1, (r, a) -> Math.acos(d(a[0])));
        s("Math", "atan", 1, (r, a) -> Math.atan(d(a[0])));
        s("Math", "atan2", 2, (r, a) -> Math.atan2(d(a[0]), d(a[1])));
        s("Math", "sinh", 1, (r, a) -> Math.sinh(d(a[0])));
        s("Math", "cosh", 1, (r, a) -> Math.cosh(d(a[0])));
        s("Math", "tanh", 1, (r, a) -> Math.tanh(d(a[0])));
        s("Math", "hypot", 2, (r, a) -> Math.hypot(d(a[0]), d(a[1])));
        s("Math", "signum", 1, (r, a) -> Math.signum(d(a[0])));
        s("Math", "toRadians", 1, (r, a) -> Math.toRadians(d(a[0])));
        s("Math", "toDegrees", 1, (r, a) -> Math.toDegrees(d(a[0])));
        s("Math", "random", 0, (r, a) -> Math.random());

        // Integer, Long, Double, Float, Boolean, String statics
        f("Integer", "MAX_VALUE", Integer.MAX_VALUE);
        f("Integer", "MIN_VALUE", Integer.MIN_VALUE);
        s("Integer", "parseInt", 1, (r, a) -> Integer.parseInt(str(a[0])));
        s("Integer", "parseInt", 2, (r, a) -> Integer.parseInt(str(a[0]), i(a[1])));
        s("Integer", "valueOf", 1, (r, a) -> i(a[0]));
        s("Integer", "toString", 1, (r, a) -> Integer.toString(i(a[0])));
        s("Integer", "compare", 2, (r, a) -> Integer.compare(i(a[0]), i(a[1])));
        s("Integer", "signum", 1, (r, a) -> Integer.signum(i(a[0])));
        s("Integer", "toHexString", 1, (r, a) -> Integer.toHexString(i(a[0])));
        s("Integer", "toBinaryString", 1, (r, a) -> Integer.toBinaryString(i(a[0])));
        f("Long", "MAX_VALUE", Long.MAX_VALUE);
        f("Long", "MIN_VALUE", Long.MIN_VALUE);
        s("Long", "parseLong", 1, (r, a) -> Long.parseLong(str(a[0])));
        s("Long", "valueOf", 1, (r, a) -> l(a[0]));
        s("Long", "toString", 1, (r, a) -> Long.toString(l(a[0])));
        s("Long", "compare", 2, (r, a) -> Long.compare(l(a[0]), l(a[1])));
        s("Long", "signum", 1, (r, a) -> Long.signum(l(a[0])));
        f("Double", "MAX_VALUE", Double.MAX_VALUE);
        f("Double", "MIN_VALUE", Double.MIN_VALUE);
        f("Double", "POSITIVE_INFINITY", Double.POSITIVE_INFINITY);
        f("Double", "NEGATIVE_INFINITY", Double.NEGATIVE_INFINITY);
        f("Double", "NaN", Double.NaN);
        s("Double", "parseDouble", 1, (r, a) -> Double.parseDouble(str(a[0])));
        s("Double", "valueOf", 1, (r, a) -> d(a[0]));
        s("Double", "toString", 1, (r, a) -> Double.toString(d(a[0])));
        s("Double", "compare", 2, (r, a) -> Double.compare(d(a[0]), d(a[1])));
        s("Double", "isNaN", 1, (r, a) -> Double.isNaN(d(a[0])));
        s("Double", "isInfinite", 1, (r, a) -> Double.isInfinite(d(a[0])));
        s("Float", "parseFloat", 1, (r, a) -> Float.parseFloat(str(a[0])));
        f("Boolean", "TRUE", Boolean.TRUE);
        f("Boolean", "FALSE", Boolean.FALSE);
        s("Boolean", "parseBoolean", 1, (r, a) -> Boolean.parseBoolean(str(a[0])));
        s("Boolean", "valueOf", 1, (r, a) -> Ops.convert(a[0], Type.BOOLEAN, false));
        s("String", "valueOf", 1, (r, a) -> Ops.str(a[0]));
        s("String", "join", 2, (r, a) -> {
            List<String> parts = new ArrayList<>();
            for (Object o : (Iterable<?>) Ops.convert(a[1], new Type("Iterable", null), false)) {
                parts.add(Ops.str(o));
            }
            return String.join(charSeq(a[0]), parts);
        });

        // Collections, Objects
        s("Collections", "sort", 1, (r, a) -> {
            ((List<Object>) Ops.convert(a[0], new Type("List", null), false)).sort(null);
            return null;
        });
        s("Collections", "sort", 2, (r, a) -> {
            ((List<Object>) Ops.convert(a[0], new Type("List", null), false)).sort(comparator(a[1]));
            return null;
        });
        s("Collections", "reverse", 1, (r, a) -> {
            Collections.reverse((List<?>) Ops.convert(a[0], new Type("List", null), false));
            return null;
        });
        s("Collections", "max", 1, (r, a) -> maxOf(coll(a[0]), true));
        s("Collections", "min", 1, (r, a) -> maxOf(coll(a[0]), false));
        s("Collections", "frequency", 2, (r, a) -> Collections.frequency(coll(a[0]), a[1]));
        s("Collections", "emptyList", 0, (r, a) -> Collections.emptyList());
        s("Collections", "emptyMap", 0, (r, a) -> Collections.emptyMap());
        s("Collections", "emptySet", 0, (r, a) -> Collections.emptySet());
        s("Collections", "singletonList", 1, (r, a) -> Collections.singletonList(a[0]));
        s("Collections", "singleton", 1, (r, a) -> Collections.singleton(a[0]));
        s("Collections", "unmodifiableList", 1, (r, a) -> Collections.unmodifiableList(
                (List<?>) Ops.convert(a[0], new Type("List", null), false)));
        s("Collections", "unmodifiableMap", 1, (r, a) -> Collections.unmodifiableMap(map(a[0])));
        s("Collections", "swap", 3, (r, a) -> {
            Collections.swap((List<?>) Ops.convert(a[0], new Type("List", null), false), i(a[1]), i(a[2]));
            return null;
        });
        s("Collections", "nCopies", 2, (r, a) -> Collections.nCopies(i(a[0]), a[1]));
        s("Objects", "equals", 2, (r, a) -> Objects.equals(a[0], a[1]));
        s("Objects", "isNull", 1, (r, a) -> a[0] == null);
        s("Objects", "nonNull", 1, (r, a) -> a[0] != null);
        s("Objects", "requireNonNull", 1, (r, a) -> Objects.requireNonNull(a[0]));
        s("Objects", "requireNonNull", 2, (r, a) -> Objects.requireNonNull(a[0], str(a[1])));
        s("Objects", "toString", 2, (r, a) -> a[0] == null ? str(a[1]) : Ops.str(a[0]));
        s("Objects", "hashCode", 1, (r, a) -> Objects.hashCode(a[0]));

        // the doc values of a score script, and the dates they hold
        m("ScriptDocValues", "getValue", 0, (r, a) -> ((ScriptDocValues) r).value());
        m("ScriptDocValues", "getValues", 0, (r, a) -> r);
        m("DenseVectorScriptDocValues", "getVectorValue", 0, (r, a) -> {
            float[] v = ((ScriptDocValues.Vector) r).require();
            PArray out = new PArray(Type.FLOAT, v.length);
            for (int i = 0; i < v.length; i++) {
                out.values[i] = v[i];
            }
            return out;
        });
        m("DenseVectorScriptDocValues", "getMagnitude", 0, (r, a) -> (float) ((ScriptDocValues.Vector) r).magnitude());
        m("DenseVectorScriptDocValues", "size", 0, (r, a) -> ((ScriptDocValues.Vector) r).values == null ? 0 : 1);
        m("DenseVectorScriptDocValues", "isEmpty", 0, (r, a) -> ((ScriptDocValues.Vector) r).values == null);
        m("ZonedDateTime", "toInstant", 0, (r, a) -> ((java.time.ZonedDateTime) r).toInstant());
        m("ZonedDateTime", "toEpochSecond", 0, (r, a) -> ((java.time.ZonedDateTime) r).toEpochSecond());
        m("ZonedDateTime", "getYear", 0, (r, a) -> ((java.time.ZonedDateTime) r).getYear());
        m("ZonedDateTime", "getMonthValue", 0, (r, a) -> ((java.time.ZonedDateTime) r).getMonthValue());
        m("ZonedDateTime", "getDayOfMonth", 0, (r, a) -> ((java.time.ZonedDateTime) r).getDayOfMonth());
        m("ZonedDateTime", "getDayOfYear", 0, (r, a) -> ((java.time.ZonedDateTime) r).getDayOfYear());
        m("ZonedDateTime", "getHour", 0, (r, a) -> ((java.time.ZonedDateTime) r).getHour());
        m("ZonedDateTime", "getMinute", 0, (r, a) -> ((java.time.ZonedDateTime) r).getMinute());
        m("ZonedDateTime", "getSecond", 0, (r, a) -> ((java.time.ZonedDateTime) r).getSecond());
        m("ZonedDateTime", "getNano", 0, (r, a) -> ((java.time.ZonedDateTime) r).getNano());
        m("ZonedDateTime", "isBefore", 1, (r, a) -> ((java.time.ZonedDateTime) r).isBefore(
                (java.time.ZonedDateTime) a[0]));
        m("ZonedDateTime", "isAfter", 1, (r, a) -> ((java.time.ZonedDateTime) r).isAfter(
                (java.time.ZonedDateTime) a[0]));
        m("ZonedDateTime", "compareTo", 1, (r, a) -> ((java.time.ZonedDateTime) r).compareTo(
                (java.time.ZonedDateTime) a[0]));
        m("Instant", "toEpochMilli", 0, (r, a) -> ((java.time.Instant) r).toEpochMilli());
        m("Instant", "getEpochSecond", 0, (r, a) -> ((java.time.Instant) r).getEpochSecond());
        m("Instant", "getNano", 0, (r, a) -> ((java.time.Instant) r).getNano());

        // exceptions: constructed, thrown and caught by scripts
        m("Exception", "getMessage", 0, (r, a) -> ((ScriptExceptions.Value) r).message());
        m("Exception", "getLocalizedMessage", 0, (r, a) -> ((ScriptExceptions.Value) r).message());
        for (String type : ScriptExceptions.javaNames().keySet()) {
            c(type, 0, (r, a) -> new ScriptExceptions.Value(type, null));
            c(type, 1, (r, a) -> new ScriptExceptions.Value(type, (String) Ops.convert(a[0], Type.STRING, false)));
        }
    }

    private static CharSequence charSeq(Object v) {
        if (v instanceof CharSequence cs) {
            return cs;
        }
        throw PainlessRuntimeError.classCast("Cannot cast " + Ops.typeName(v) + " to java.lang.CharSequence");
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object maxOf(Collection<Object> c, boolean max) {
        Comparator cmp = Comparator.naturalOrder();
        return max ? Collections.max((Collection) c, cmp) : Collections.min((Collection) c, cmp);
    }

    private static List<String> splitOnToken(String s, String token, int limit) {
        List<String> out = new ArrayList<>();
        if (token.isEmpty()) {
            throw new IllegalArgumentException("Cannot split on an empty token");
        }
        int from = 0;
        while (true) {
            int at = s.indexOf(token, from);
            if (at < 0 || (limit > 0 && out.size() == limit - 1)) {
                out.add(s.substring(from));
                break;
            }
            out.add(s.substring(from, at));
            from = at + token.length();
        }
        return out;
    }

    /** The script types a runtime value is an instance of, most specific first. */
    static List<String> chain(Object v) {
        return CHAINS.computeIfAbsent(v.getClass(), Api::chainOf);
    }

    private static List<String> chainOf(Class<?> c) {
        List<String> out = new ArrayList<>();
        if (c == String.class) {
            out.add("String");
        } else if (Number.class.isAssignableFrom(c)) {
            out.add(c.getSimpleName());
            out.add("Number");
        } else if (c == Boolean.class) {
            out.add("Boolean");
        } else if (c == Character.class) {
            out.add("Character");
        } else if (c == StringBuilder.class) {
            out.add("StringBuilder");
        } else if (c == ScriptDocValues.class) {
            out.addAll(List.of("ScriptDocValues", "List", "Collection", "Iterable"));
        } else if (c == ScriptDocValues.Vector.class) {
            out.add("DenseVectorScriptDocValues");
        } else if (java.time.ZonedDateTime.class.isAssignableFrom(c)) {
            out.add("ZonedDateTime");
        } else if (java.time.Instant.class.isAssignableFrom(c)) {
            out.add("Instant");
        } else if (List.class.isAssignableFrom(c)) {
            out.addAll(List.of("List", "Collection", "Iterable"));
        } else if (Set.class.isAssignableFrom(c)) {
            out.addAll(List.of("Set", "Collection", "Iterable"));
        } else if (Collection.class.isAssignableFrom(c)) {
            out.addAll(List.of("Collection", "Iterable"));
        } else if (Map.class.isAssignableFrom(c)) {
            out.add("Map");
        } else if (Map.Entry.class.isAssignableFrom(c)) {
            out.add("Map.Entry");
        } else if (Iterator.class.isAssignableFrom(c)) {
            out.add("Iterator");
        } else if (c == ScriptExceptions.Value.class) {
            out.add("Exception");
        }
        out.add("Object");
        return List.copyOf(out);
    }

    /** The types a static type may hold at run time, for compile-time checks of calls on it. */
    static List<String> staticChain(Type t) {
        return switch (t.name()) {
            case "String" -> List.of("String", "Object");
            case "List", "ArrayList" -> List.of("List", "Collection", "Iterable", "Object");
            case "Set", "HashSet" -> List.of("Set", "Collection", "Iterable", "Object");
            case "Collection" -> List.of("Collection", "Iterable", "Object");
            case "Map", "HashMap", "LinkedHashMap" -> List.of("Map", "Object");
            case "Map.Entry" -> List.of("Map.Entry", "Object");
            case "Integer", "Long", "Double", "Float", "Short", "Byte" -> List.of(t.name(), "Number", "Object");
            case "Number" -> List.of("Number", "Object");
            case "StringBuilder" -> List.of("StringBuilder", "Object");
            case "Boolean" -> List.of("Boolean", "Object");
            default -> ScriptExceptions.isException(t.name()) ? List.of("Exception", "Object") : null;
        };
    }

    static Fn method(Object receiver, String name, int arity) {
        String key = name + "/" + arity;
        for (String t : chain(receiver)) {
            Map<String, Fn> ms = METHODS.get(t);
            if (ms != null) {
                Fn fn = ms.get(key);
                if (fn != null) {
                    return fn;
                }
            }
        }
        return null;
    }

    static boolean hasMethod(List<String> chain, String name, int arity) {
        String key = name + "/" + arity;
        for (String t : chain) {
            Map<String, Fn> ms = METHODS.get(t);
            if (ms != null && ms.containsKey(key)) {
                return true;
            }
        }
        return false;
    }

    static Fn staticMethod(String type, String name, int arity) {
        Map<String, Fn> ms = STATICS.get(type);
        return ms == null ? null : ms.get(name + "/" + arity);
    }

    static boolean hasStaticField(String type, String name) {
        Map<String, Object> fs = FIELDS.get(type);
        return fs != null && fs.containsKey(name);
    }

    static Object staticField(String type, String name) {
        return FIELDS.get(type).get(name);
    }

    static Fn constructor(String type, int arity) {
        Map<Integer, Fn> cs = CONSTRUCTORS.get(type);
        return cs == null ? null : cs.get(arity);
    }

    /** A constructor for an interface type a script names ({@code new List()} is no constructor). */
    static boolean constructible(String type) {
        return CONSTRUCTORS.containsKey(type);
    }
}
