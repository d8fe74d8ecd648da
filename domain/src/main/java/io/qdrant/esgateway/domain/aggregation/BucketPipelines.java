package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.AggregationTree.Node;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.script.PainlessScript;
import io.qdrant.esgateway.domain.script.Script;
import io.qdrant.esgateway.domain.script.ScriptContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The {@code bucket_script} and {@code bucket_selector} pipeline aggregations, run as Elasticsearch runs them: after
 * the reduction, over the final buckets of their parent multi-bucket aggregation. Each reads, per bucket, the values
 * its {@code buckets_path} names ({@code _count}, {@code _key}, a sibling metric's value, {@code stats.avg}, a path
 * through single-bucket aggregations {@code f>m}) into {@code params} and runs its script: {@code bucket_script} adds
 * the returned number to the bucket as {@code {"value": …}}, {@code bucket_selector} keeps the buckets whose script
 * returns true. {@code gap_policy}: {@code skip} (default: a bucket with a missing value is left as it is),
 * {@code insert_zeros}, {@code keep_values}.
 *
 * <p>Like {@code meta} ({@link AggregationMeta}), they are read from the validated request body's {@link AggregationTree} and applied
 * to the rendered answer; the {@link io.qdrant.esgateway.domain.aggregation.parse.AggregationParser} checks them and leaves
 * them out of the computed aggregations.
 */
public final class BucketPipelines {
    /** Pipeline aggregation types run here. */
    public static final Set<String> TYPES = Set.of("bucket_script", "bucket_selector");

    enum GapPolicy { SKIP, INSERT_ZEROS, KEEP_VALUES }

    /** One pipeline: its name, whether it selects, its variables' paths, its script, gap policy and format. */
    record Spec(String name, boolean selector, Map<String, String> paths, Script script, GapPolicy gapPolicy,
                Optional<String> format) {
    }

    private static final BucketPipelines NONE = new BucketPipelines(Map.of(), new IdentityHashMap<>());

    private final Map<String, Node> roots;
    /** The pipelines run over each multi-bucket aggregation's buckets, in request order. */
    private final Map<Node, List<Spec>> pipelines;

    private BucketPipelines(Map<String, Node> roots, Map<Node, List<Spec>> pipelines) {
        this.roots = roots;
        this.pipelines = pipelines;
    }

    /** The pipelines of a search body's aggregations (which the parser accepted). */
    public static BucketPipelines of(Optional<JsonValue> body) {
        return of(AggregationTree.of(body));
    }

    /** The pipelines of a request's aggregations (which the parser accepted). */
    public static BucketPipelines of(AggregationTree tree) {
        Map<Node, List<Spec>> pipelines = new IdentityHashMap<>();
        collect(tree.roots(), pipelines);
        return pipelines.isEmpty() ? NONE : new BucketPipelines(tree.roots(), pipelines);
    }

    /** Each aggregation's pipelines (the pipeline aggregations among its sub-aggregations). */
    private static void collect(Map<String, Node> nodes, Map<Node, List<Spec>> out) {
        for (Node node : nodes.values()) {
            collect(node.subs(), out);
            List<Spec> specs = new ArrayList<>();
            for (Map.Entry<String, Node> s : node.subs().entrySet()) {
                for (String t : TYPES) {
                    if (s.getValue().body().get(t) instanceof JsonObject options) {
                        specs.add(parse(s.getKey(), t, options, node.subs().keySet(), node.type()));
                    }
                }
            }
            if (!specs.isEmpty()) {
                out.put(node, specs);
            }
        }
    }

    public boolean isEmpty() {
        return pipelines.isEmpty();
    }

    /** Every stored script ({@code id}) the pipelines name. */
    public List<String> storedScripts() {
        List<String> out = new ArrayList<>();
        collectIds(roots, out);
        return out;
    }

    private void collectIds(Map<String, Node> nodes, List<String> out) {
        for (Node n : nodes.values()) {
            pipelines.getOrDefault(n, List.of()).forEach(p -> p.script().id().ifPresent(out::add));
            collectIds(n.subs(), out);
        }
    }

    /**
     * Parses a pipeline aggregation of a request ({@code type} one of {@link #TYPES}), checking it as Elasticsearch
     * does; {@code siblings} are the names of the aggregations beside it and {@code parentType} its parent's type
     * (null at the top level).
     */
    public static Spec parse(String name, String type, JsonObject options, Set<String> siblings, String parentType) {
        Map<String, String> paths = null;
        Script script = null;
        GapPolicy gap = GapPolicy.SKIP;
        Optional<String> format = Optional.empty();
        for (Map.Entry<String, JsonValue> e : options.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "buckets_path" -> paths = paths(type, v);
                case "script" -> script = Script.parse(v);
                case "gap_policy" -> gap = switch (JsonReads.text(v).orElse("").toLowerCase(java.util.Locale.ROOT)) {
                    case "skip" -> GapPolicy.SKIP;
                    case "insert_zeros" -> GapPolicy.INSERT_ZEROS;
                    case "keep_values" -> GapPolicy.KEEP_VALUES;
                    default -> throw new GatewayException(ErrorKind.X_CONTENT_PARSE, "[" + type + "] failed to parse"
                            + " field [gap_policy]", Map.of(), GatewayException.illegalArgument("Invalid gap policy: ["
                            + JsonReads.text(v).orElse(v.tokenName()) + "], accepted values: [skip, insert_zeros,"
                            + " keep_values]"));
                };
                case "format" -> {
                    if (type.equals("bucket_selector")) {
                        throw new GatewayException(ErrorKind.PARSING, "Unknown key for a " + v.tokenName() + " in ["
                                + e.getKey() + "].");
                    }
                    format = Optional.of(JsonReads.text(v).orElseThrow(() -> new GatewayException(ErrorKind.PARSING,
                            "[" + type + "] format must be a string")));
                    BucketValues.decimal(format.get());
                }
                default -> throw new GatewayException(ErrorKind.PARSING, "Unknown key for a " + v.tokenName() + " in ["
                        + e.getKey() + "].");
            }
        }
        if (paths == null) {
            throw new GatewayException(ErrorKind.PARSING, "Missing required field [buckets_path] for " + type
                    + " aggregation [" + name + "]");
        }
        if (script == null) {
            throw new GatewayException(ErrorKind.PARSING, "Missing required field [script] for " + type
                    + " aggregation [" + name + "]");
        }
        if (parentType == null) {
            throw new GatewayException(ErrorKind.ACTION_REQUEST_VALIDATION, "Validation Failed: 1: " + type + " aggregation [" + name
                    + "] must be declared inside of another aggregation;");
        }
        if (!AggregationTree.MULTI_BUCKET.contains(parentType)) {
            throw GatewayException.unsupported("[" + type + "] under a [" + parentType + "] aggregation (only under a"
                    + " multi-bucket aggregation)");
        }
        for (String path : paths.values()) {
            String first = path.split(">", 2)[0];
            if (!first.equals("_count") && !first.equals("_key") && !siblings.contains(first)
                    && (first.indexOf('.') < 0 || !siblings.contains(first.substring(0, first.indexOf('.'))))) {
                throw new GatewayException(ErrorKind.ACTION_REQUEST_VALIDATION, "Validation Failed: 1: No aggregation found for path ["
                        + path + "];");
            }
        }
        return new Spec(name, type.equals("bucket_selector"), paths, script, gap, format);
    }

    private static Map<String, String> paths(String type, JsonValue v) {
        Map<String, String> out = new LinkedHashMap<>();
        if (v instanceof JsonObject o) {
            o.members().forEach((var, p) -> out.put(var, JsonReads.text(p).orElseThrow(() -> new GatewayException(
                    ErrorKind.PARSING, "[" + type + "] buckets_path values must be strings"))));
            return out;
        }
        if (v instanceof JsonArray a) {
            for (int i = 0; i < a.elements().size(); i++) {
                int at = i;
                out.put("_value" + i, JsonReads.text(a.elements().get(i)).orElseThrow(() -> new GatewayException(
                        ErrorKind.PARSING, "[" + type + "] buckets_path values must be strings [" + at + "]")));
            }
            return out;
        }
        out.put("_value", JsonReads.text(v).orElseThrow(() -> new GatewayException(ErrorKind.PARSING, "["
                + type + "] buckets_path must be a string, an array or an object")));
        return out;
    }

    /**
     * The rendered {@code aggregations} object with the pipelines run; {@code typedKeys}: the answers are named
     * {@code <type>#<name>}; {@code stored} reads a stored script's source by id.
     */
    public JsonObject apply(JsonObject rendered, boolean typedKeys, Function<String, String> stored) {
        return isEmpty() ? rendered : AggregationTree.walk(rendered, roots, typedKeys, new Run(stored));
    }

    /** One run of the pipelines over a rendered answer. */
    private final class Run implements AggregationTree.Visitor {
        private final Function<String, String> stored;

        Run(Function<String, String> stored) {
            this.stored = stored;
        }

        @Override
        public boolean touches(Node node) {
            return pipelines.containsKey(node) || AggregationTree.touchesAny(node.subs(), this);
        }

        /** A bucket with its pipelines run (in request order); empty when dropped. */
        @Override
        public Optional<JsonObject> bucket(JsonObject bucket, Node node, boolean typed) {
            JsonObject current = bucket;
            for (Spec spec : pipelines.getOrDefault(node, List.of())) {
                Map<String, Object> params = new HashMap<>(spec.script().paramsForRun());
                boolean skip = false;
                for (Map.Entry<String, String> p : spec.paths().entrySet()) {
                    Double v = resolve(current, p.getValue(), typed);
                    if (v == null || v.isNaN()) {
                        switch (spec.gapPolicy()) {
                            case SKIP -> skip = true;
                            case INSERT_ZEROS -> v = 0.0;
                            case KEEP_VALUES -> { }
                        }
                    }
                    params.put(p.getKey(), v);
                }
                if (skip && !spec.selector()) {
                    continue;
                }
                String source = spec.script().source().orElseGet(() -> stored.apply(spec.script().id().orElseThrow()));
                Object result = PainlessScript.compile(ScriptContext.BUCKET, source).execute(params);
                if (spec.selector()) {
                    if (!(result instanceof Boolean keep)) {
                        throw GatewayException.illegalArgument("bucket_selector aggregation [" + spec.name()
                                + "] script must return a boolean");
                    }
                    if (!keep) {
                        return Optional.empty();
                    }
                    continue;
                }
                if (result == null) {
                    continue;
                }
                if (!(result instanceof Number n)) {
                    throw GatewayException.illegalArgument("bucket_script aggregation [" + spec.name()
                            + "] must return a Number, got [" + result.getClass().getName() + "]");
                }
                double d = n.doubleValue();
                JsonObjectBuilder v = JsonObjectBuilder.object().put("value", StatsAggregator.number(d));
                spec.format().ifPresent(f -> v.put("value_as_string", BucketValues.decimal(f).format(d)));
                JsonObjectBuilder next = JsonObjectBuilder.object();
                current.members().forEach(next::put);
                next.put(typed ? "simple_value#" + spec.name() : spec.name(), v.build());
                current = next.build();
            }
            return Optional.of(current);
        }
    }

    /** The value a {@code buckets_path} names in a bucket, or null when it has none. */
    private static Double resolve(JsonObject bucket, String path, boolean typed) {
        String[] steps = path.split(">");
        JsonObject at = bucket;
        for (int i = 0; i < steps.length; i++) {
            String step = steps[i];
            boolean last = i == steps.length - 1;
            if (last && step.equals("_count")) {
                return number(at.get("doc_count"));
            }
            if (last && step.equals("_key")) {
                return number(at.get("key"));
            }
            JsonObject sub = child(at, step, typed);
            String property = null;
            if (sub == null && step.indexOf('.') > 0) {
                sub = child(at, step.substring(0, step.indexOf('.')), typed);
                property = step.substring(step.indexOf('.') + 1);
            }
            if (sub == null) {
                throw GatewayException.illegalArgument("No aggregation found for path [" + path + "]");
            }
            if (!last) {
                at = sub;
                continue;
            }
            if (property != null) {
                JsonValue v = sub.get(property);
                if (v == null && sub.get("values") instanceof JsonObject values) {
                    v = values.get(property);
                }
                if (v == null && property.equals("_count")) {
                    v = sub.get("doc_count");
                }
                return number(v);
            }
            return sub.has("value") ? number(sub.get("value")) : number(sub.get("doc_count"));
        }
        return null;
    }

    private static JsonObject child(JsonObject at, String name, boolean typed) {
        for (Map.Entry<String, JsonValue> e : at.members().entrySet()) {
            if (AggregationTree.subName(e.getKey(), typed).equals(name) && e.getValue() instanceof JsonObject o) {
                return o;
            }
        }
        return null;
    }

    private static Double number(JsonValue v) {
        if (v instanceof JsonNumber n) {
            return n.value().doubleValue();
        }
        if (v instanceof JsonValue.JsonString s) {
            try {
                return Double.parseDouble(s.value());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }
}
