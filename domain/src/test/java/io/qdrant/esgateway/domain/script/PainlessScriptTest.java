package io.qdrant.esgateway.domain.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The language, feature by feature: values as Painless computes them, errors as it reports them. */
class PainlessScriptTest {

    static Object run(String source) {
        return run(source, new HashMap<>());
    }

    static Object run(String source, Map<String, Object> params) {
        Map<String, Object> ctx = new HashMap<>();
        Map<String, Object> src = new LinkedHashMap<>();
        src.put("views", 5);
        src.put("tags", new ArrayList<>(List.of("a", "b")));
        src.put("nested", new LinkedHashMap<>(Map.of("x", 1)));
        ctx.put("_source", src);
        return PainlessScript.compileUncached(ScriptContext.UPDATE, source).execute(params, ctx);
    }

    static GatewayException failure(String source) {
        try {
            run(source);
        } catch (GatewayException e) {
            return e;
        }
        throw new AssertionError("no failure: " + source);
    }

    static String causeType(String source) {
        GatewayException e = failure(source);
        assertThat(e.kind()).isEqualTo(ErrorKind.SCRIPT);
        return e.gatewayCause().javaType();
    }

    @Test
    void literals_and_numeric_types() {
        assertThat(run("1")).isEqualTo(1);
        assertThat(run("1L")).isEqualTo(1L);
        assertThat(run("1.5")).isEqualTo(1.5);
        assertThat(run("1.5f")).isEqualTo(1.5f);
        assertThat(run("0x10")).isEqualTo(16);
        assertThat(run("010")).isEqualTo(8);
        assertThat(run("-2147483648")).isEqualTo(Integer.MIN_VALUE);
        assertThat(run("'a' + \"b\"")).isEqualTo("ab");
        assertThat(run("'it\\'s'")).isEqualTo("it's");
        assertThat(run("true && !false")).isEqualTo(true);
        assertThat(run("null")).isNull();
    }

    @Test
    void arithmetic_promotes_like_java() {
        assertThat(run("7 / 2")).isEqualTo(3);
        assertThat(run("-7 / 2")).isEqualTo(-3);
        assertThat(run("7 % -3")).isEqualTo(1);
        assertThat(run("7 / 2.0")).isEqualTo(3.5);
        assertThat(run("7L * 2")).isEqualTo(14L);
        assertThat(run("0.1f + 0.2f")).isEqualTo(0.1f + 0.2f);
        assertThat(run("Integer.MAX_VALUE + 1")).isEqualTo(Integer.MIN_VALUE);
        assertThat(run("1 << 33")).isEqualTo(2);
        assertThat(run("1L << 33")).isEqualTo(1L << 33);
        assertThat(run("-8 >>> 28")).isEqualTo(-8 >>> 28);
        assertThat(run("5 & 3 | 8 ^ 1")).isEqualTo(5 & 3 | 8 ^ 1);
        assertThat(run("~5")).isEqualTo(~5);
        assertThat(run("def x = params.n; x / 2", Map.of("n", 9))).isEqualTo(4);
        assertThat(run("def x = params.n; x / 2", Map.of("n", 9.0))).isEqualTo(4.5);
        assertThat(run("'x' + 1.0f + 2 + null")).isEqualTo("x1.02null");
        assertThat(run("'a' + [1, 'b'] + ['k': 2]")).isEqualTo("a[1, b]{k=2}");
    }

    @Test
    void comparisons_and_equality() {
        assertThat(run("1 == 1.0")).isEqualTo(true);
        assertThat(run("params.x == 3L", Map.of("x", 3))).isEqualTo(true);
        assertThat(run("'a' == 'a'")).isEqualTo(true);
        assertThat(run("[1, 2] == [1, 2]")).isEqualTo(true);
        assertThat(run("[1, 2] === [1, 2]")).isEqualTo(false);
        assertThat(run("2 < 2.5 && 3 >= 3L")).isEqualTo(true);
        assertThat(run("params.s != null", Map.of("s", "x"))).isEqualTo(true);
    }

    @Test
    void locals_typed_and_def() {
        assertThat(run("int x = 5; x += 1.5; x")).isEqualTo(6);
        assertThat(run("long x = 5; x")).isEqualTo(5L);
        assertThat(run("double d = 5; d")).isEqualTo(5.0);
        assertThat(run("def x = 5; x += 1.5; x")).isEqualTo(6.5);
        assertThat(run("int i = 0; i++; ++i; i--; i")).isEqualTo(1);
        assertThat(run("int a = 1, b = 2; a + b")).isEqualTo(3);
        assertThat(run("String s = 'a'; s += 1; s")).isEqualTo("a1");
        assertThat(run("(int) 3.9 + (long) -2.5")).isEqualTo(1L);
        assertThat(run("def d = 3.9; (int) d")).isEqualTo(3);
    }

    @Test
    void control_flow() {
        assertThat(run("int s = 0; for (int i = 0; i < 10; i++) { if (i % 2 == 0) continue; s += i; } s"))
                .isEqualTo(25);
        assertThat(run("int s = 0; while (true) { s++; if (s > 4) break; } s")).isEqualTo(5);
        assertThat(run("int s = 0; do { s += 2; } while (s < 7); s")).isEqualTo(8);
        assertThat(run("def s = 0; for (def x : [1, 2, 3]) { s += x } s")).isEqualTo(6);
        assertThat(run("def s = ''; for (x in ['a', 'b']) { s += x } s")).isEqualTo("ab");
        assertThat(run("int[] a = new int[] {3, 4}; int s = 0; for (int x : a) { s += x } s")).isEqualTo(7);
        assertThat(run("if (1 > 2) { return 'a' } else if (2 > 1) { return 'b' } return 'c'")).isEqualTo("b");
        assertThat(run("1 > 2 ? 'a' : 'b'")).isEqualTo("b");
        assertThat(run("int f(int x) { return x * 2 } return f(21)")).isEqualTo(42);
        assertThat(run("int fib(int n) { if (n < 2) { return n } return fib(n - 1) + fib(n - 2) } fib(15)"))
                .isEqualTo(610);
    }

    @Test
    void maps_lists_and_arrays() {
        assertThat(run("ctx._source.views += 1; ctx._source.views")).isEqualTo(6);
        assertThat(run("ctx._source['views']")).isEqualTo(5);
        assertThat(run("params['n'] + params.n", Map.of("n", 2))).isEqualTo(4);
        assertThat(run("ctx._source.tags.add('c'); ctx._source.tags")).isEqualTo(List.of("a", "b", "c"));
        assertThat(run("ctx._source.tags[-1]")).isEqualTo("b");
        assertThat(run("ctx._source.tags.length")).isEqualTo(2);
        assertThat(run("ctx._source.tags.contains('a')")).isEqualTo(true);
        assertThat(run("def m = [:]; m.a = 1; m['b'] = 2; m.size()")).isEqualTo(2);
        assertThat(run("def m = ['a': 1]; m.containsKey('a') && !m.isEmpty()")).isEqualTo(true);
        assertThat(run("def l = new ArrayList(); l.add(3); l.add(1); l.add(2); Collections.sort(l); l"))
                .isEqualTo(List.of(1, 2, 3));
        assertThat(run("def l = [3, 1, 2]; l.sort((a, b) -> b - a); l")).isEqualTo(List.of(3, 2, 1));
        assertThat(run("def l = [1, 2, 3, 4]; l.removeIf(x -> x % 2 == 0); l")).isEqualTo(List.of(1, 3));
        assertThat(run("def a = new int[3]; a[1] = 5; a.length + a[1] + a[0]")).isEqualTo(8);
        assertThat(run("String[] a = new String[2]; a[0] == null")).isEqualTo(true);
        assertThat(run("def s = 0; for (def e : ['a': 1, 'b': 2].entrySet()) { s += e.getValue() } s"))
                .isEqualTo(3);
        assertThat(run("ctx._source.remove('views'); ctx._source.containsKey('views')")).isEqualTo(false);
        assertThat(run("def m = new HashMap(); m.put('k', [1]); m.k[0]")).isEqualTo(1);
    }

    @Test
    void strings_and_math() {
        assertThat(run("'Hello'.toLowerCase().substring(1, 3)")).isEqualTo("el");
        assertThat(run("'a,b,c'.splitOnToken(',').size()")).isEqualTo(3);
        assertThat(run("'abc'.indexOf('c') + 'abc'.length()")).isEqualTo(5);
        assertThat(run("'  x '.trim().isEmpty()")).isEqualTo(false);
        assertThat(run("'abc'.empty")).isEqualTo(false);
        assertThat(run("Math.max(1, 2)")).isEqualTo(2.0);
        assertThat(run("Math.round(2.5)")).isEqualTo(3L);
        assertThat(run("Math.sqrt(16) + Math.abs(-1) + Math.pow(2, 3)")).isEqualTo(13.0);
        assertThat(run("Integer.parseInt('42') + Long.parseLong('1')")).isEqualTo(43L);
        assertThat(run("Double.parseDouble('1.5')")).isEqualTo(1.5);
        assertThat(run("String.valueOf(5) + Integer.toString(6)")).isEqualTo("56");
        assertThat(run("StringBuilder sb = new StringBuilder(); sb.append('a').append(1); sb.toString()"))
                .isEqualTo("a1");
    }

    @Test
    void instanceof_elvis_and_null_safe() {
        assertThat(run("params.x instanceof String", Map.of("x", "s"))).isEqualTo(true);
        assertThat(run("ctx._source.tags instanceof List && ctx._source instanceof Map")).isEqualTo(true);
        assertThat(run("5 instanceof Integer")).isEqualTo(true);
        assertThat(run("params.missing ?: 'dflt'")).isEqualTo("dflt");
        assertThat(run("params.missing?.length()")).isNull();
        assertThat(run("ctx._source.nested?.x")).isEqualTo(1);
        assertThat(run("ctx._source.none?.x ?: 7")).isEqualTo(7);
    }

    @Test
    void compile_errors_name_the_problem_and_position() {
        GatewayException e = failure("ctx._source.a = ");
        assertThat(e.reason()).isEqualTo("compile error");
        assertThat(e.scriptDetails().offset()).isEqualTo(16);
        assertThat(e.scriptDetails().scriptStack()).containsExactly("ctx._source.a = ", "                ^---- HERE");
        assertThat(e.gatewayCause().reason()).isEqualTo("unexpected end of script.");
        assertThat(causeType("ctx._source.b = x")).isEqualTo("illegal_argument_exception");
        assertThat(failure("ctx._source.b = x").gatewayCause().reason()).isEqualTo("cannot resolve symbol [x]");
        assertThat(causeType("int x = 1.5")).isEqualTo("class_cast_exception");
        assertThat(failure("int x = 1.5").gatewayCause().reason()).isEqualTo("Cannot cast from [double] to [int].");
        assertThat(causeType("ctx._source.a = 1/0")).isEqualTo("arithmetic_exception");
        assertThat(failure("while (true) {}").gatewayCause().reason()).isEqualTo("no paths escape from while loop");
        assertThat(failure("ctx._source.b = /a/").gatewayCause().reason()).startsWith("Regexes are disabled.");
        assertThat(failure("ctx._source.b = 'a' =~ 'b'").gatewayCause().reason()).startsWith("Regexes are disabled.");
        assertThat(failure("1 +").reason()).isEqualTo("compile error");
        assertThat(failure("int x = 1; int x = 2").gatewayCause().reason()).contains("already defined");
    }

    @Test
    void runtime_errors_as_painless_reports_them() {
        GatewayException npe = failure("ctx._source.zz.x = 1");
        assertThat(npe.reason()).isEqualTo("runtime error");
        assertThat(npe.gatewayCause().javaType()).isEqualTo("null_pointer_exception");
        assertThat(npe.scriptDetails().offset()).isEqualTo(14);
        assertThat(causeType("ctx._source.tags.get(10)")).isEqualTo("index_out_of_bounds_exception");
        assertThat(causeType("def a = new int[1]; a[3]")).isEqualTo("array_index_out_of_bounds_exception");
        assertThat(causeType("def x = 3; x / 0")).isEqualTo("arithmetic_exception");
        assertThat(causeType("def x = 3; (String) x")).isEqualTo("class_cast_exception");
        assertThat(causeType("def x = 3; x < 'a'")).isEqualTo("class_cast_exception");
        assertThat(causeType("ctx._source.tags[0].foo()")).isEqualTo("illegal_argument_exception");
        assertThat(failure("ctx._source.tags[0].foo()").gatewayCause().reason())
                .isEqualTo("dynamic method [java.lang.String, foo/0] not found");
        assertThat(causeType("Integer.parseInt('x')")).isEqualTo("number_format_exception");
        assertThat(causeType("def x = 1L; int y = x")).isEqualTo("class_cast_exception");
    }

    @Test
    void a_long_script_is_shortened_in_runtime_errors_only() {
        String tail = " // " + "a".repeat(300);
        assertThat(failure("def x = 1; x / 0;" + tail).scriptDetails().script()).hasSize(260).endsWith("a ...");
        assertThat(failure("def x = ;" + tail).scriptDetails().script()).isEqualTo("def x = ;" + tail);
    }

    @Test
    void loops_are_bounded() {
        GatewayException e = failure("int i = 0; while (true) { i++; if (i < 0) break; }");
        assertThat(e.gatewayCause().javaType()).isEqualTo("painless_error");
        assertThat(e.gatewayCause().reason())
                .isEqualTo("The maximum number of statements that can be executed in a loop has been reached.");
        assertThat(e.scriptDetails().start()).isEqualTo(11);
        assertThat(e.scriptDetails().end()).isEqualTo(26);
        assertThat(run("int s = 0; for (int i = 0; i < 500000; i++) { s++ } s")).isEqualTo(500000);
    }

    @Test
    void the_sandbox_cannot_be_left() {
        assertThat(failure("Class.forName('java.lang.Runtime')").gatewayCause().reason())
                .isEqualTo("cannot resolve symbol [Class]");
        assertThat(failure("System.exit(0)").gatewayCause().reason())
                .isEqualTo("static method [java.lang.System, exit/1] not found");
        assertThat(failure("ctx.getClass()").gatewayCause().reason())
                .isEqualTo("member method [java.util.Map, getClass/0] not found");
        assertThat(failure("ctx._source.getClass()").gatewayCause().reason())
                .isEqualTo("dynamic method [java.util.LinkedHashMap, getClass/0] not found");
        assertThat(failure("'x'.getClass().forName('java.lang.Runtime')").gatewayCause().javaType())
                .isEqualTo("illegal_argument_exception");
        assertThat(failure("Runtime.getRuntime().exec('ls')").gatewayCause().reason())
                .isEqualTo("cannot resolve symbol [Runtime]");
        assertThat(failure("new Thread()").gatewayCause().reason()).isEqualTo("cannot resolve type [Thread]");
        assertThat(failure("def t = Thread; t").gatewayCause().reason()).isEqualTo("cannot resolve symbol [Thread]");
        assertThat(run("ctx._source.class")).isNull(); // a map key, as in Painless
        assertThat(failure("'x'.class").gatewayCause().reason()).isEqualTo("field [java.lang.String, class] not found");
        assertThat(failure("def s = 'x'; s.class").gatewayCause().reason())
                .isEqualTo("dynamic getter [java.lang.String, class] not found");
        assertThat(failure("'a' < 'b'").gatewayCause().reason()).isEqualTo("cannot apply the less than operator [<] to"
                + " the types [java.lang.String] and [java.lang.String]");
        assertThat(failure("java.lang.System.exit(0)").gatewayCause().reason())
                .isEqualTo("cannot resolve symbol [java]");
    }

    @Test
    void try_catch_and_throw() {
        assertThat(run("try { return 1 / params.z } catch (ArithmeticException e) { return e.getMessage() }",
                new HashMap<>(Map.of("z", 0)))).isEqualTo("/ by zero");
        assertThat(run("def l = [1]; try { l.get(3) } catch (IndexOutOfBoundsException e) { return 'caught' } return 'no'"))
                .isEqualTo("caught");
        assertThat(run("int[] a = new int[1]; try { a[3] = 1 } catch (RuntimeException e) { return e instanceof"
                + " ArrayIndexOutOfBoundsException } return false")).isEqualTo(true);
        // the first matching catch wins; a catch of an unrelated type lets the exception through
        assertThat(run("try { Integer.parseInt('x') } catch (NullPointerException e) { return 'npe' }"
                + " catch (IllegalArgumentException e) { return 'iae' } catch (Exception e) { return 'e' } 'none'"))
                .isEqualTo("iae");
        assertThat(causeType("try { Integer.parseInt('x') } catch (NullPointerException e) { return 1 }"))
                .isEqualTo("number_format_exception");
        assertThat(run("def m = null; try { def y = m.x } catch (NullPointerException e) { return 'npe' }"))
                .isEqualTo("npe");
        assertThat(run("try { throw new IllegalStateException('bad') } catch (Exception e) { return e.toString() }"))
                .isEqualTo("java.lang.IllegalStateException: bad");
        assertThat(run("def n = 0; for (int i = 0; i < 3; i++) { try { if (i == 1) { throw new RuntimeException()"
                + " } n += 10 } catch (RuntimeException e) { n += 1 } } n")).isEqualTo(21);
        // a function whose paths all return or throw
        assertThat(run("int f(int x) { if (x > 0) { return x } throw new IllegalArgumentException('neg') }"
                + " try { f(-1) } catch (IllegalArgumentException e) { return e.getMessage() }")).isEqualTo("neg");
        // an uncaught throw is the script's failure, typed as the exception thrown
        GatewayException thrown = failure("throw new IllegalArgumentException('no ' + ctx._source.views)");
        assertThat(thrown.gatewayCause().javaType()).isEqualTo("illegal_argument_exception");
        assertThat(thrown.gatewayCause().reason()).isEqualTo("no 5");
        assertThat(causeType("throw 'x'")).isEqualTo("class_cast_exception");
        // Painless's own errors are no Exception: the loop bound is not caught
        assertThat(causeType("try { for (int i = 0; i < 10000000; i++) { ctx._source.views++ } } catch (Exception e) { return 1 }"))
                .isEqualTo("painless_error");
        // compile errors
        assertThat(failure("try { ctx.x = 1 }").gatewayCause().reason()).isEqualTo("unexpected end of script.");
        assertThat(failure("try { ctx.x = 1 } catch (Foo e) { ctx.x = 2 }").gatewayCause().reason())
                .isEqualTo("cannot resolve type [Foo]");
        assertThat(causeType("try { ctx.x = 1 } catch (String e) { ctx.x = 2 }")).isEqualTo("class_cast_exception");
        assertThat(failure("try { ctx.x = 1 } catch (Exception e) { ctx.x = 2 } e").gatewayCause().reason())
                .isEqualTo("cannot resolve symbol [e]");
    }

    @Test
    void compiled_once_per_source() {
        PainlessScript a = PainlessScript.compile(ScriptContext.UPDATE, "ctx._source.cached = 1");
        PainlessScript b = PainlessScript.compile(ScriptContext.UPDATE, "ctx._source.cached = 1");
        assertThat(a).isSameAs(b);
        assertThat(PainlessScript.cacheSize()).isLessThanOrEqualTo(PainlessScript.CACHE_SIZE);
    }
}
