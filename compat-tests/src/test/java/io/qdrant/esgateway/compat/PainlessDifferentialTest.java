package io.qdrant.esgateway.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;
import io.qdrant.esgateway.bootstrap.GatewayForCompat;
import io.qdrant.esgateway.compat.harness.Engine;
import io.qdrant.esgateway.compat.harness.HttpTarget;
import io.qdrant.esgateway.compat.harness.Json;
import io.qdrant.esgateway.compat.harness.Oracles;
import io.qdrant.esgateway.compat.harness.RequestSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The Painless differential: the same scripts through {@code _update} on the gateway (on the embedded Lucene store
 * and on Qdrant, the spec-checked {@link FakeQdrant}) and on OpenSearch 3.9 with its {@code lang-painless} module
 * (Elasticsearch 8.15's Maven artifacts lack the module). Compared: the status, the update's {@code result} and the
 * document's {@code _source} afterwards; for failures the error type, the {@code script_exception} reason
 * ("compile error" / "runtime error") and the Java exception type under it (messages of Java exceptions and the
 * Java frames of the script stack are the JVM's own and are not compared).
 *
 * <p>Two corpora: a written one, one script per language feature, context variable and error; and a seeded
 * generator of typed random expressions over typed locals, {@code def} params and literals (int, long, float,
 * double, boolean, String; arithmetic, bitwise, shifts, comparisons, boolean logic, ternaries, casts, concatenation,
 * String and Math methods), whose values are compared as strings. {@code -Dcompat.painless.seed=N
 * -Dcompat.painless.scripts=N} run another seed or more scripts.
 */
class PainlessDifferentialTest {
    private static final long SEED = Long.getLong("compat.painless.seed", 20261203);
    private static final int GENERATED = Integer.getInteger("compat.painless.scripts", 300);
    private static final String INDEX = "painless-diff";
    private static final String DOC = "{\"n\":5,\"s\":\"hello\",\"tags\":[\"a\",\"b\"],\"m\":{\"x\":1,\"y\":[1,2]},"
            + "\"d\":1.5,\"big\":3000000000,\"nil\":null}";
    private static final AtomicInteger DOC_IDS = new AtomicInteger();
    private static final AtomicInteger ERRORS_SEEN = new AtomicInteger();

    private static FakeQdrant qdrant;
    private static GatewayForCompat onQdrant;
    private static Path dir;

    record Case(String name, String script, String params) {
    }

    /** The written corpus: each feature, each context variable, each error class. */
    static List<Case> corpus() {
        List<Case> c = new ArrayList<>();
        c.add(new Case("counter", "ctx._source.n += params.k", "{\"k\":2}"));
        c.add(new Case("counter on a long", "ctx._source.big += 1", "{}"));
        c.add(new Case("tag added", "ctx._source.tags.add(params.tag)", "{\"tag\":\"c\"}"));
        c.add(new Case("tag removed if present",
                "if (ctx._source.tags.contains(params.tag)) { ctx._source.tags.remove(ctx._source.tags.indexOf(params.tag)) }",
                "{\"tag\":\"a\"}"));
        c.add(new Case("removeIf with a lambda", "ctx._source.tags.removeIf(t -> t == 'b')", "{}"));
        c.add(new Case("sort with a comparator", "ctx._source.l = [3, 1, 2]; ctx._source.l.sort((a, b) -> b - a)", "{}"));
        c.add(new Case("Collections.sort and reverse",
                "def l = ['b', 'c', 'a']; Collections.sort(l); Collections.reverse(l); ctx._source.l = l", "{}"));
        c.add(new Case("new field from params map", "ctx._source.p = params.obj", "{\"obj\":{\"z\":1,\"b\":2,\"a\":[1,{\"q\":true}]}}"));
        c.add(new Case("nested map write", "ctx._source.m.x = ctx._source.m.x * 10; ctx._source.m['w'] = 'new'", "{}"));
        c.add(new Case("field removed", "ctx._source.remove('s')", "{}"));
        c.add(new Case("op noop", "ctx.op = 'noop'", "{}"));
        c.add(new Case("op none", "ctx.op = 'none'", "{}"));
        c.add(new Case("op delete", "if (ctx._source.n > 1) { ctx.op = 'delete' }", "{}"));
        c.add(new Case("ctx metadata readable", "ctx._source.meta = ctx._index + ':' + ctx._id + ':' + ctx._version + ':' + ctx.op", "{}"));
        c.add(new Case("integer division and promotion",
                "ctx._source.a = 10 / 4; ctx._source.b = 10 / 4.0; ctx._source.c = 10L / 3; ctx._source.d2 = 7 % -3; ctx._source.e = -7 / 2",
                "{}"));
        c.add(new Case("float arithmetic", "ctx._source.f = 0.1f + 0.2f; ctx._source.g = 1.5f * 2", "{}"));
        c.add(new Case("int overflow wraps", "ctx._source.o = Integer.MAX_VALUE + 1; ctx._source.p = Long.MIN_VALUE - 1", "{}"));
        c.add(new Case("def arithmetic follows the values", "def x = params.i; def y = params.f; ctx._source.r = [x / 2, y / 2, x * y]",
                "{\"i\":7,\"f\":7.0}"));
        c.add(new Case("string concatenation", "ctx._source.c = 'x' + 1 + 2.5 + true + null + [1] + ['k': 'v']", "{}"));
        c.add(new Case("string methods",
                "String s = ctx._source.s; ctx._source.r = [s.length(), s.toUpperCase(), s.substring(1, 3), s.indexOf('l'), s.replace('l', 'L'), s.startsWith('he'), s.contains('z'), s.trim(), s.isEmpty()]",
                "{}"));
        c.add(new Case("splitOnToken", "ctx._source.r = 'a,b,,c'.splitOnToken(',')", "{}"));
        c.add(new Case("Math", "ctx._source.r = [Math.max(1, 2), Math.min(2L, 3), Math.abs(-3), Math.round(2.5), Math.floor(2.7), Math.ceil(2.1), Math.sqrt(16), Math.pow(2, 10), Math.log10(1000), Math.PI > 3]", "{}"));
        c.add(new Case("Integer Long Double", "ctx._source.r = [Integer.parseInt('42'), Long.parseLong('9000000000'), Double.parseDouble('2.5'), Integer.MAX_VALUE, Long.MAX_VALUE, Integer.toString(7), Double.compare(1.0, 2.0)]", "{}"));
        c.add(new Case("equality semantics", "ctx._source.r = [1 == 1.0, 'a' == 'a', [1,2] == [1,2], params.x == 3L, params.y == null, 1 != 2]", "{\"x\":3}"));
        c.add(new Case("null constants compared", "ctx._source.r = null == null", "{}"));
        c.add(new Case("typed boolean & refused", "boolean b = true; ctx._source.r = b & false", "{}"));
        c.add(new Case("def boolean & allowed", "def b = true; ctx._source.r = [b & true, b | false, true ^ b]", "{}"));
        c.add(new Case("comparisons", "ctx._source.r = [1 < 2, 2.5 >= 2, 3L > 3, -1 <= -1.0]", "{}"));
        c.add(new Case("boolean logic and bitwise", "ctx._source.r = [true && false, true || false, !true, 5 & 3, 5 | 3, 5 ^ 3, ~5, 1 << 33, 1L << 33, -16 >> 2, -16 >>> 28]", "{}"));
        c.add(new Case("typed locals and compound assignment", "int x = 5; x += 1.7; long y = 3; y *= 2; double d = 1; d /= 4; String s = 'a'; s += 1; ctx._source.r = [x, y, d, s]", "{}"));
        c.add(new Case("increments", "int i = 0; int a = i++; int b = ++i; int c = i--; ctx._source.r = [a, b, c, i]; ctx._source.n++", "{}"));
        c.add(new Case("casts", "ctx._source.r = [(int) 3.9, (long) -2.5, (double) 3, (float) 1.1, (int) 'a'.charAt(0)]", "{}"));
        c.add(new Case("explicit cast of def", "def v = params.v; ctx._source.r = [(int) v, (long) v]", "{\"v\":3.7}"));
        c.add(new Case("instanceof", "ctx._source.r = [ctx._source.s instanceof String, ctx._source.tags instanceof List, ctx._source.m instanceof Map, ctx._source.n instanceof Integer, ctx._source.big instanceof Long, ctx._source.d instanceof Double, params instanceof Map]", "{}"));
        c.add(new Case("elvis and null-safe", "ctx._source.r = [params.missing ?: 'dflt', params.missing?.length(), ctx._source.m?.x, ctx._source.nil?.x ?: 7]", "{}"));
        c.add(new Case("ternary", "ctx._source.r = ctx._source.n > 3 ? 'big' : 'small'; ctx._source.t = true ? 1 : 2.0", "{}"));
        c.add(new Case("if else chain", "if (ctx._source.n < 0) { ctx._source.k = 'neg' } else if (ctx._source.n == 0) { ctx._source.k = 'zero' } else { ctx._source.k = 'pos' }", "{}"));
        c.add(new Case("for loop with continue and break", "int s = 0; for (int i = 0; i < 100; i++) { if (i % 3 == 0) { continue } if (i > 20) { break } s += i } ctx._source.r = s", "{}"));
        c.add(new Case("while and do", "int i = 0; while (i < 10) { i += 3 } int j = 0; do { j++ } while (j < 0); ctx._source.r = [i, j]", "{}"));
        c.add(new Case("enhanced for over list, map entries and keys", "def s = 0; for (def t : ctx._source.m.y) { s += t } def keys = []; for (String k : ctx._source.m.keySet()) { keys.add(k) } for (def e : ctx._source.m.entrySet()) { keys.add(e.getKey()) } ctx._source.r = [s, keys]", "{}"));
        c.add(new Case("for in", "def out = ''; for (t in ctx._source.tags) { out += t } ctx._source.r = out", "{}"));
        c.add(new Case("arrays", "int[] a = new int[3]; a[0] = 5; a[2] = a[0] * 2; def b = new String[] {'x', 'y'}; ctx._source.r = [a.length, a[2], b[1], a[-1]]", "{}"));
        c.add(new Case("negative list index", "ctx._source.r = ctx._source.tags[-1]", "{}"));
        c.add(new Case("list and map literals", "ctx._source.r = [[], [:], [1, 'a', null], ['k': [1, 2]]]", "{}"));
        c.add(new Case("HashMap and ArrayList", "def m = new HashMap(); m.put('b', 1); m.put('a', 2); def l = new ArrayList(m.keySet()); Collections.sort(l); ctx._source.r = [m.size(), m.get('a'), m.containsKey('c'), m.getOrDefault('c', 9), l]", "{}"));
        c.add(new Case("functions", "int twice(int x) { return x * 2 } def fact(def n) { if (n <= 1) { return 1 } return n * fact(n - 1) } ctx._source.r = [twice(4), fact(10)]", "{}"));
        c.add(new Case("params by bracket", "ctx._source.r = params['n'] + params.n", "{\"n\":4}"));
        c.add(new Case("list getLength shortcut and isEmpty", "ctx._source.r = [ctx._source.tags.length, ctx._source.tags.empty, ctx._source.tags.size()]", "{}"));
        // compile errors
        c.add(new Case("syntax error", "ctx._source.a = ", "{}"));
        c.add(new Case("unknown variable", "ctx._source.b = x", "{}"));
        c.add(new Case("typed narrowing refused", "int x = 1.5", "{}"));
        c.add(new Case("constant division by zero", "ctx._source.a = 1/0", "{}"));
        c.add(new Case("endless loop refused", "while (true) {}", "{}"));
        c.add(new Case("unknown static class", "Class.forName('java.lang.Runtime')", "{}"));
        c.add(new Case("System.exit refused", "System.exit(0)", "{}"));
        c.add(new Case("getClass refused on a typed map", "ctx.getClass()", "{}"));
        c.add(new Case("unknown type in new", "new Thread()", "{}"));
        c.add(new Case("duplicate variable", "int x = 1; int x = 2", "{}"));
        // try/catch/throw
        c.add(new Case("catch an arithmetic exception", "try { ctx._source.r = 1 / params.z } catch (ArithmeticException e) { ctx._source.r = 'caught ' + e.getMessage() }", "{\"z\":0}"));
        c.add(new Case("the first matching catch wins", "def out = []; for (def v : [[1], null, []]) { try { out.add(v[0]) } catch (NullPointerException e) { out.add('npe') } catch (IndexOutOfBoundsException e) { out.add('ioobe') } catch (Exception e) { out.add('e') } } ctx._source.r = out", "{}"));
        c.add(new Case("catch by supertype, instanceof the subtypes", "try { int[] a = new int[1]; a[2] = 1 } catch (RuntimeException e) { ctx._source.r = [e instanceof ArrayIndexOutOfBoundsException, e instanceof IndexOutOfBoundsException, e instanceof NullPointerException, e instanceof Exception] }", "{}"));
        c.add(new Case("throw and catch", "try { if (ctx._source.n > 1) { throw new IllegalArgumentException('big ' + ctx._source.n) } ctx._source.r = 'small' } catch (IllegalArgumentException e) { ctx._source.r = e.getMessage() }", "{}"));
        c.add(new Case("a number format exception is an illegal argument", "try { ctx._source.r = Integer.parseInt(ctx._source.s) } catch (IllegalArgumentException e) { ctx._source.r = -1 }", "{}"));
        c.add(new Case("an uncaught throw fails the script", "throw new IllegalStateException('stop')", "{}"));
        c.add(new Case("an unrelated catch lets it through", "try { ctx._source.r = ctx._source.tags.get(5) } catch (NullPointerException e) { ctx._source.r = 1 }", "{}"));
        c.add(new Case("a caught exception thrown again", "try { ctx._source.r = ctx._source.nil.length() } catch (NullPointerException e) { throw e }", "{}"));
        c.add(new Case("the loop bound is not caught", "try { while (ctx._source.n > 0) { ctx._source.r = 1 } } catch (Exception e) { ctx._source.r = 2 }", "{}"));
        c.add(new Case("try without catch", "try { ctx._source.r = 1 }", "{}"));
        c.add(new Case("catch of an unknown type", "try { ctx._source.r = 1 } catch (Nope e) { ctx._source.r = 2 }", "{}"));
        c.add(new Case("a function that throws on one path", "int half(int x) { if (x % 2 == 0) { return x / 2 } throw new IllegalArgumentException('odd') } def out = []; for (int i = 0; i < 3; i++) { try { out.add(half(i)) } catch (IllegalArgumentException e) { out.add(e.getMessage()) } } ctx._source.r = out", "{}"));
        // runtime errors
        c.add(new Case("null pointer", "ctx._source.nil.x = 1", "{}"));
        c.add(new Case("index out of bounds", "ctx._source.tags.get(10)", "{}"));
        c.add(new Case("array index out of bounds", "int[] a = new int[1]; a[3] = 1", "{}"));
        c.add(new Case("runtime division by zero", "ctx._source.a = params.x / 0", "{\"x\":3}"));
        c.add(new Case("bad cast", "ctx._source.a = (String) params.x", "{\"x\":3}"));
        c.add(new Case("bad comparison", "ctx._source.a = params.x < 'a'", "{\"x\":3}"));
        c.add(new Case("unknown dynamic method", "ctx._source.a = ctx._source.s.foo()", "{}"));
        c.add(new Case("getClass on a def value", "ctx._source.a = ctx._source.s.getClass()", "{}"));
        c.add(new Case("number format", "ctx._source.a = Integer.parseInt('x')", "{}"));
        c.add(new Case("loop limit", "int i = 0; while (true) { i++; if (i < 0) break; }", "{}"));
        c.add(new Case("def to int of a long", "def x = ctx._source.big; int y = x", "{}"));
        return c;
    }

    @AfterAll
    static void stop() throws IOException {
        if (onQdrant != null) {
            onQdrant.close();
        }
        if (qdrant != null) {
            qdrant.close();
        }
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @TestFactory
    Stream<DynamicTest> scriptsAgreeWithOpenSearchPainless() throws IOException {
        if (!Oracles.enabled().contains(Engine.OPENSEARCH)) {
            return Stream.empty(); // -Doracle.engines leaves OpenSearch out explicitly
        }
        dir = Files.createTempDirectory("qeg-painless-diff-");
        qdrant = new FakeQdrant();
        onQdrant = GatewayForCompat.start(dir.resolve("qdrant"), Map.of("QEG_BACKEND", "qdrant", "QEG_QDRANT_URL",
                qdrant.uri().toString()));
        HttpTarget oracle = Oracles.engine(Engine.OPENSEARCH).target();
        List<HttpTarget> gateways = List.of(Oracles.gateway(), new HttpTarget("gateway-qdrant", onQdrant.port()));
        Stream<DynamicTest> setup = Stream.of(dynamicTest("setup: a fresh index on every side", () -> {
            // the oracle compiles each distinct script: lift its compilation rate limit (75 per 5 minutes)
            HttpTarget.Exchange unlimited = oracle.send(RequestSpec.json("PUT", "/_cluster/settings",
                    "{\"persistent\":{\"script.context.update.max_compilations_rate\":\"unlimited\"}}"));
            assertThat(unlimited.status()).as(unlimited.body()).isEqualTo(200);
            for (HttpTarget t : concat(oracle, gateways)) {
                t.send(RequestSpec.of("DELETE", "/" + INDEX));
                HttpTarget.Exchange created = t.send(RequestSpec.json("PUT", "/" + INDEX,
                        "{\"settings\":{\"number_of_replicas\":0},\"mappings\":{\"dynamic\":false}}"));
                assertThat(created.status()).as(t.name() + " " + created.body()).isEqualTo(200);
            }
        }));
        Stream<DynamicTest> written = corpus().stream().map(c -> dynamicTest(c.name(), () -> compare(c, oracle,
                gateways)));
        Stream<DynamicTest> generated = ExpressionGenerator.generate(SEED, GENERATED).stream()
                .map(c -> dynamicTest(c.name(), () -> compare(c, oracle, gateways)));
        Stream<DynamicTest> checks = Stream.of(dynamicTest("the corpora exercised errors, not only values", () ->
                assertThat(ERRORS_SEEN.get()).isGreaterThan(20)));
        return Stream.of(setup, written, generated, checks).flatMap(s -> s);
    }

    private static List<HttpTarget> concat(HttpTarget first, List<HttpTarget> rest) {
        List<HttpTarget> out = new ArrayList<>(List.of(first));
        out.addAll(rest);
        return out;
    }

    private static void compare(Case c, HttpTarget oracle, List<HttpTarget> gateways) {
        String id = "d" + DOC_IDS.incrementAndGet();
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        ObjectNode script = body.putObject("script");
        script.put("source", c.script());
        script.set("params", Json.parseOrText(c.params()));
        String update = Json.compact(body);
        JsonNode expected = outcome(oracle, id, update);
        if (expected.path("error").isObject()) {
            ERRORS_SEEN.incrementAndGet();
        }
        for (HttpTarget gateway : gateways) {
            JsonNode actual = outcome(gateway, id, update);
            if (!expected.equals(actual)) {
                throw new AssertionError("the gateway (" + gateway.name() + ") runs the script differently from"
                        + " OpenSearch's Painless\n  script: " + c.script() + "\n  params: " + c.params()
                        + "\n  opensearch: " + expected + "\n  gateway:    " + actual);
            }
        }
    }

    /** What is compared of one scripted update: status, result and source, or the error's types. */
    private static JsonNode outcome(HttpTarget target, String id, String update) {
        HttpTarget.Exchange put = target.send(RequestSpec.json("PUT", "/" + INDEX + "/_doc/" + id, DOC));
        assertThat(put.status()).as(target.name() + " " + put.body()).isIn(200, 201);
        HttpTarget.Exchange answer = target.send(RequestSpec.json("POST", "/" + INDEX + "/_update/" + id, update));
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("status", answer.status());
        JsonNode parsed = Json.parseOrText(answer.body());
        if (answer.status() >= 300) {
            JsonNode e = parsed.path("error");
            ObjectNode err = out.putObject("error");
            err.put("type", e.path("type").asText());
            err.put("reason", e.path("reason").asText());
            JsonNode script = e.path("caused_by");
            err.put("script_type", script.path("type").asText());
            err.put("script_reason", script.path("reason").asText());
            err.put("lang", script.path("lang").asText());
            err.put("script", script.path("script").asText());
            err.put("cause", script.path("caused_by").path("type").asText());
            return out;
        }
        out.put("result", parsed.path("result").asText());
        HttpTarget.Exchange got = target.send(RequestSpec.of("GET", "/" + INDEX + "/_doc/" + id));
        JsonNode doc = Json.parseOrText(got.body());
        out.put("found", doc.path("found").asBoolean());
        out.set("_source", doc.path("_source"));
        out.put("_version", doc.path("_version").asLong());
        return out;
    }

    /**
     * Random well-typed expressions (so that Painless's compile-time type checks pass on both sides), over typed
     * locals (never constant-folded), {@code def} params and literals; the script stores their string value.
     */
    static final class ExpressionGenerator {
        private final Random random;
        private static final String LOCALS = "int i0 = 7; int i1 = -3; long l0 = 5000000000L; long l1 = -2L; "
                + "float f0 = 1.25f; double d0 = 2.5; double d1 = -0.1; boolean b0 = true; String s0 = 'abc'; ";
        private static final String PARAMS = "{\"pi\":4,\"pn\":-9,\"pl\":8000000000,\"pd\":0.75,\"ps\":\"Hey\","
                + "\"pb\":false,\"pz\":0}";

        private ExpressionGenerator(long seed) {
            this.random = new Random(seed);
        }

        static List<Case> generate(long seed, int count) {
            ExpressionGenerator g = new ExpressionGenerator(seed);
            List<Case> out = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String type = g.pick("int", "long", "double", "float", "boolean", "String", "def");
                String expr = g.expr(type, 3);
                out.add(new Case("generated #" + i + " (seed " + seed + ")", LOCALS + "ctx._source.r = '' + ("
                        + expr + ")", PARAMS));
            }
            return out;
        }

        private String pick(String... options) {
            return options[random.nextInt(options.length)];
        }

        private String expr(String type, int depth) {
            if (depth == 0 || random.nextInt(4) == 0) {
                return leaf(type);
            }
            return switch (type) {
                case "int", "long" -> switch (random.nextInt(7)) {
                    case 0, 1 -> "(" + expr(type, depth - 1) + " " + pick("+", "-", "*") + " "
                            + expr(random.nextBoolean() ? "int" : type, depth - 1) + ")";
                    case 2 -> "(" + expr(type, depth - 1) + " " + pick("/", "%") + " " + expr("int", depth - 1) + ")";
                    case 3 -> "(" + expr(type, depth - 1) + " " + pick("&", "|", "^", "<<", ">>", ">>>") + " "
                            + expr("int", depth - 1) + ")";
                    case 4 -> "(" + expr("boolean", depth - 1) + " ? " + expr(type, depth - 1) + " : "
                            + expr(type, depth - 1) + ")";
                    case 5 -> "(" + type + ") " + expr(pick("double", "long", "float"), depth - 1);
                    default -> pick("-", "~") + expr(type, depth - 1);
                };
                case "double", "float" -> switch (random.nextInt(5)) {
                    case 0, 1 -> "(" + expr(type, depth - 1) + " " + pick("+", "-", "*", "/", "%") + " "
                            + expr(pick("int", "long", type), depth - 1) + ")";
                    case 2 -> type.equals("double") ? "Math." + pick("abs", "floor", "ceil", "sqrt", "signum") + "("
                            + expr("double", depth - 1) + ")" : "(float) " + expr("double", depth - 1);
                    case 3 -> "(" + expr("boolean", depth - 1) + " ? " + expr(type, depth - 1) + " : "
                            + expr(pick("int", type), depth - 1) + ")";
                    default -> "-" + expr(type, depth - 1);
                };
                case "boolean" -> switch (random.nextInt(6)) {
                    case 0 -> "(" + expr(num(), depth - 1) + " " + pick("<", "<=", ">", ">=", "==", "!=") + " "
                            + expr(num(), depth - 1) + ")";
                    case 1 -> "(" + expr("boolean", depth - 1) + " " + pick("&&", "||", "^", "&", "|") + " "
                            + expr("boolean", depth - 1) + ")";
                    case 2 -> "!" + expr("boolean", depth - 1);
                    case 3 -> "(" + expr("String", depth - 1) + " " + pick("==", "!=") + " "
                            + expr("String", depth - 1) + ")";
                    case 4 -> expr("String", depth - 1) + "." + pick("isEmpty()", "contains('a')",
                            "startsWith('H')", "endsWith('c')");
                    default -> "(" + expr("def", depth - 1) + " instanceof " + pick("Integer", "Long", "Double",
                            "String", "Number") + ")";
                };
                case "String" -> switch (random.nextInt(4)) {
                    case 0 -> "(" + expr("String", depth - 1) + " + " + expr(pick("int", "long", "double", "float",
                            "boolean", "String", "def"), depth - 1) + ")";
                    case 1 -> expr("String", depth - 1) + "." + pick("toUpperCase()", "toLowerCase()", "trim()",
                            "substring(1)", "replace('a', 'xy')");
                    case 2 -> "String.valueOf(" + expr(pick("int", "double", "boolean"), depth - 1) + ")";
                    default -> "(" + expr("boolean", depth - 1) + " ? " + expr("String", depth - 1) + " : "
                            + expr("String", depth - 1) + ")";
                };
                default -> switch (random.nextInt(3)) { // def: arithmetic on params
                    case 0 -> "(" + expr("def", depth - 1) + " " + pick("+", "-", "*", "/", "%") + " "
                            + expr(pick("def", "int", "double"), depth - 1) + ")";
                    case 1 -> "(" + expr("def", depth - 1) + " " + pick("+", "-") + " " + expr("long", depth - 1) + ")";
                    default -> "(" + expr("boolean", depth - 1) + " ? " + expr("def", depth - 1) + " : "
                            + expr("def", depth - 1) + ")";
                };
            };
        }

        private String num() {
            return pick("int", "long", "double", "float", "def");
        }

        private String leaf(String type) {
            return switch (type) {
                case "int" -> pick("i0", "i1", String.valueOf(random.nextInt(21) - 10), "params.pi", "params.pz");
                case "long" -> pick("l0", "l1", (random.nextInt(2000) - 1000) + "L", "params.pl");
                case "float" -> pick("f0", (random.nextInt(40) - 20) / 8.0 + "f");
                case "double" -> pick("d0", "d1", String.valueOf((random.nextInt(40) - 20) / 4.0), "params.pd");
                case "boolean" -> pick("b0", "true", "false", "params.pb");
                case "String" -> pick("s0", "'Hi '", "''", "params.ps");
                default -> pick("params.pi", "params.pn", "params.pl", "params.pd", "params.pz");
            };
        }
    }
}
