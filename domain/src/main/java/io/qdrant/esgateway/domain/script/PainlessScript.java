package io.qdrant.esgateway.domain.script;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.error.ScriptErrorDetails;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A compiled Painless script: parsed and checked once per distinct source and context (a bounded cache, as
 * Elasticsearch's {@code script.cache.max_size}), then run any number of times, concurrently, each run with its own
 * locals and loop budget (1,000,000 loop statements, Painless's {@code max_loop_counter}).
 *
 * <p>Failures are Elasticsearch's {@code script_exception}: "compile error" from {@link #compile}, "runtime error"
 * from {@link #execute}, each with the script stack, position and the Java exception type as its cause.
 */
public final class PainlessScript {
    public static final String LANG = "painless";
    static final int CACHE_SIZE = 3000;

    private static final Map<String, PainlessScript> CACHE = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PainlessScript> eldest) {
            return size() > CACHE_SIZE;
        }
    };

    private final String source;
    private final ScriptContext context;
    private final Parser.Program program;

    private PainlessScript(String source, ScriptContext context, Parser.Program program) {
        this.source = source;
        this.context = context;
        this.program = program;
    }

    /** The compiled script for this source in this context, from the cache when compiled before. */
    public static PainlessScript compile(ScriptContext context, String source) {
        String key = context.name() + '\u0000' + source;
        synchronized (CACHE) {
            PainlessScript cached = CACHE.get(key);
            if (cached != null) {
                return cached;
            }
        }
        PainlessScript compiled = compileUncached(context, source);
        synchronized (CACHE) {
            CACHE.put(key, compiled);
        }
        return compiled;
    }

    static int cacheSize() {
        synchronized (CACHE) {
            return CACHE.size();
        }
    }

    static PainlessScript compileUncached(ScriptContext context, String source) {
        BitSet statements = new BitSet();
        try {
            return new PainlessScript(source, context, Parser.parse(source, context.variables, context.types,
                    context.functions, statements));
        } catch (ScriptCompileError e) {
            throw error("compile error", source, statements, e.offset, e.esType, e.getMessage());
        } catch (StackOverflowError e) {
            throw error("compile error", source, statements, 0, "illegal_argument_exception",
                    "too many nested expressions");
        }
    }

    public String source() {
        return source;
    }

    /**
     * Runs the script with the context's variables (in {@link ScriptContext#variables()} order) and returns its
     * value (the value of a {@code return}, or of the script's last expression; null otherwise).
     */
    public Object execute(Object... variables) {
        return executeIn(null, variables);
    }

    /** Runs the script and converts its value to a double, as a score script returns it. */
    double executeDouble(Object runContext, Object... variables) {
        Object value = executeIn(runContext, variables);
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        Node.Run run = new Node.Run(program.functions());
        run.pos = source.length();
        throw runtime(run, "class_cast_exception", "Cannot cast " + Ops.typeName(value) + " to double");
    }

    /**
     * Painless's error for a value of the wrong type returned by a script whose context fixes its return type
     * ({@code target}): a runtime {@code class_cast_exception}.
     */
    GatewayException returnCast(Object value, String target) {
        Node.Run run = new Node.Run(program.functions());
        run.pos = source.length();
        String type = switch (value) {
            case Integer i -> "int";
            case Long l -> "long";
            case Double d -> "double";
            case Float f -> "float";
            case Boolean b -> "boolean";
            case Short x -> "short";
            case Byte b -> "byte";
            case Character c -> "char";
            case null, default -> Ops.typeName(value);
        };
        return runtime(run, "class_cast_exception", "cannot implicitly cast def [" + type + "] to " + target);
    }

    /** Runs the script with a context the context's functions read ({@link ScoreDoc} for score scripts). */
    Object executeIn(Object runContext, Object... variables) {
        if (variables.length != context.variables.size()) {
            throw new IllegalArgumentException("expected " + context.variables + " but got " + variables.length
                    + " values");
        }
        Node.Run run = new Node.Run(program.functions());
        run.context = runContext;
        Node.Frame frame = new Node.Frame(Math.max(program.frameSize(), variables.length), run);
        System.arraycopy(variables, 0, frame.slots, 0, variables.length);
        try {
            program.main().exec(frame);
            return frame.returned;
        } catch (PainlessRuntimeError e) {
            throw runtime(run, e.esType, e.getMessage());
        } catch (StackOverflowError e) {
            throw runtime(run, "stack_overflow_error", "stack overflow");
        } catch (RuntimeException e) {
            throw runtime(run, esType(e), e.getMessage());
        }
    }

    private GatewayException runtime(Node.Run run, String esType, String reason) {
        return error("runtime error", source, program.statements(), run.pos, esType, reason);
    }

    /** Elasticsearch's name for a Java exception type: its simple name in snake case. */
    static String esType(Throwable t) {
        return t.getClass().getSimpleName().replaceAll("([a-z0-9])([A-Z])", "$1_$2")
                .toLowerCase(java.util.Locale.ROOT);
    }

    private static GatewayException error(String reason, String source, BitSet statements, int offset,
                                          String esType, String causeReason) {
        int at = Math.max(0, Math.min(offset, source.length()));
        int start = statements.previousSetBit(at);
        if (start < 0) {
            start = 0;
        }
        int end = statements.nextSetBit(start + 1);
        if (end < 0 || end > source.length()) {
            end = source.length();
        }
        List<String> stack = new ArrayList<>();
        stack.add(source.substring(start, end));
        stack.add(" ".repeat(Math.max(0, at - start)) + "^---- HERE");
        // Painless shortens the script of a runtime error to its first 256 characters
        String shown = reason.equals("runtime error") && source.length() > 256 ? source.substring(0, 256) + " ..."
                : source;
        return GatewayException.script(reason, new ScriptErrorDetails(stack, shown, LANG, at, start, end),
                GatewayException.scriptCause(esType, causeReason));
    }
}
