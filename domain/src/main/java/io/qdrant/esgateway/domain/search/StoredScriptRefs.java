package io.qdrant.esgateway.domain.search;

import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.script.FunctionScoring;
import java.util.function.Function;

/**
 * The stored scripts ({@code "script": {"id": …}}) a search names, replaced by their sources before it runs: a query's
 * {@code script_score} queries and the {@code script_score} functions of {@code function_score}, the {@code _script}
 * sorts and the {@code script_fields}.
 */
public final class StoredScriptRefs {
    private StoredScriptRefs() {
    }

    /** Whether {@code query} names a stored script. */
    public static boolean any(Query query) {
        return switch (query) {
            case Query.ScriptScore s -> s.source() == null || any(s.query());
            case Query.FunctionScore f -> any(f.query()) || f.functions().stream().anyMatch(fn ->
                    fn.fn() instanceof FunctionScoring.ScriptFn s && s.source() == null
                            || fn.filter().map(StoredScriptRefs::any).orElse(false));
            case Query.Bool b -> b.must().stream().anyMatch(StoredScriptRefs::any)
                    || b.filter().stream().anyMatch(StoredScriptRefs::any)
                    || b.should().stream().anyMatch(StoredScriptRefs::any)
                    || b.mustNot().stream().anyMatch(StoredScriptRefs::any);
            case Query.ConstantScore c -> any(c.filter());
            case Query.Boosting b -> any(b.positive()) || any(b.negative());
            case Query.DisMax d -> d.queries().stream().anyMatch(StoredScriptRefs::any);
            default -> false;
        };
    }

    /** {@code query} with each stored script's source, read by {@code source} (which fails for an unknown id). */
    public static Query resolve(Query query, Function<String, String> source) {
        return switch (query) {
            case Query.ScriptScore s -> new Query.ScriptScore(resolve(s.query(), source), s.script(),
                    s.source() != null ? s.source() : source.apply(s.script().id().orElseThrow()), s.minScore(),
                    s.boost());
            case Query.FunctionScore f -> new Query.FunctionScore(resolve(f.query(), source), f.functions().stream()
                    .map(fn -> new Query.ScoreFunction(fn.filter().map(q -> resolve(q, source)), fn.weight(),
                            fn.fn() instanceof FunctionScoring.ScriptFn s && s.source() == null
                                    ? new FunctionScoring.ScriptFn(s.script(), source.apply(s.script().id()
                                    .orElseThrow())) : fn.fn())).toList(),
                    f.scoreMode(), f.boostMode(), f.maxBoost(), f.minScore(), f.boost());
            case Query.Bool b -> new Query.Bool(b.must().stream().map(q -> resolve(q, source)).toList(),
                    b.filter().stream().map(q -> resolve(q, source)).toList(),
                    b.should().stream().map(q -> resolve(q, source)).toList(),
                    b.mustNot().stream().map(q -> resolve(q, source)).toList(), b.minimumShouldMatch(), b.boost());
            case Query.ConstantScore c -> new Query.ConstantScore(resolve(c.filter(), source), c.boost());
            case Query.Boosting b -> new Query.Boosting(resolve(b.positive(), source), resolve(b.negative(), source),
                    b.negativeBoost(), b.boost());
            case Query.DisMax d -> new Query.DisMax(d.queries().stream().map(q -> resolve(q, source)).toList(),
                    d.tieBreaker(), d.boost());
            default -> query;
        };
    }

    /** Whether the sort or the {@code script_fields} of {@code request} name a stored script. */
    public static boolean anyOutsideQuery(SearchRequest request) {
        return request.sort().stream().anyMatch(s -> s instanceof io.qdrant.esgateway.domain.sort.SortSpec.Script sc
                && sc.source() == null) || request.scriptFields().stream().anyMatch(f -> f.source() == null);
    }

    /** {@code request} with the sources of the stored scripts its sort and {@code script_fields} name. */
    public static SearchRequest resolveOutsideQuery(SearchRequest request, Function<String, String> source) {
        return request.withScripts(request.sort().stream().map(s ->
                        s instanceof io.qdrant.esgateway.domain.sort.SortSpec.Script sc && sc.source() == null
                                ? sc.withSource(source.apply(sc.script().id().orElseThrow())) : s).toList(),
                request.scriptFields().stream().map(f -> f.source() == null
                        ? f.withSource(source.apply(f.script().id().orElseThrow())) : f).toList());
    }
}
