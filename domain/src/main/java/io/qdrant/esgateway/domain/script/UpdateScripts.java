package io.qdrant.esgateway.domain.script;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The update context: runs a script over a document's {@code ctx} ({@code _source}, {@code op}, {@code _index},
 * {@code _id}, {@code _version}, {@code _routing}, {@code _now}) as Elasticsearch 8's update and update-by-query do.
 * The metadata is read-only and {@code op} takes only the values the context allows (Elasticsearch 8 checks both
 * when the script writes them).
 */
public final class UpdateScripts {
    private UpdateScripts() {
    }

    /** What the script decided. */
    public enum Op {
        /** Write the (changed) source: {@code index}, or {@code create} for a scripted upsert. */
        INDEX,
        /** Change nothing: {@code noop} or {@code none}. */
        NOOP,
        /** Delete the document. */
        DELETE
    }

    public record Outcome(Op op, JsonObject source) {
    }

    private static final List<String> UPDATE_OPS = List.of("noop", "index", "delete", "none");
    private static final List<String> UPSERT_OPS = List.of("create", "noop", "none");
    private static final List<String> BY_QUERY_OPS = List.of("noop", "index", "delete");

    /** {@code _update} of an existing document. */
    public static Outcome update(PainlessScript script, Map<String, Object> params, JsonObject source, String index,
                                 String id, long version, long nowMillis) {
        return run(script, params, source, index, id, version, nowMillis, "index", UPDATE_OPS);
    }

    /** A scripted upsert: the script runs over the {@code upsert} document with {@code op = create}. */
    public static Outcome upsert(PainlessScript script, Map<String, Object> params, JsonObject upsert, String index,
                                 String id, long nowMillis) {
        return run(script, params, upsert, index, id, -1, nowMillis, "create", UPSERT_OPS);
    }

    /** {@code _update_by_query} of one matching document. */
    public static Outcome byQuery(PainlessScript script, Map<String, Object> params, JsonObject source, String index,
                                  String id, long version, long nowMillis) {
        return run(script, params, source, index, id, version, nowMillis, "index", BY_QUERY_OPS);
    }

    private static Outcome run(PainlessScript script, Map<String, Object> params, JsonObject source, String index,
                               String id, long version, long nowMillis, String initialOp, List<String> ops) {
        Ctx ctx = new Ctx(ops);
        ctx.init("_index", index);
        ctx.init("_id", id);
        if (version >= 0) {
            ctx.init("_version", version);
        }
        ctx.init("_routing", null);
        ctx.init("_now", nowMillis);
        ctx.init("op", initialOp);
        ctx.init("_source", ScriptValues.toScriptMap(source, true));
        script.execute(params, ctx);
        Object op = ctx.get("op");
        Op decided = switch (String.valueOf(op)) {
            case "index", "create" -> Op.INDEX;
            case "delete" -> Op.DELETE;
            default -> Op.NOOP;
        };
        Object newSource = ctx.get("_source");
        if (!(newSource instanceof Map<?, ?>)) {
            throw GatewayException.illegalArgument("[_source] must be a map, not ["
                    + (newSource == null ? "null" : newSource.getClass().getName()) + "]");
        }
        JsonValue json;
        try {
            json = ScriptValues.toJson(newSource);
        } catch (IllegalArgumentException e) {
            throw GatewayException.illegalArgument(e.getMessage());
        }
        return new Outcome(decided, (JsonObject) json);
    }

    /** {@code ctx}: a map whose metadata entries are read-only and whose {@code op} is checked when written. */
    private static final class Ctx extends HashMap<String, Object> {
        private static final long serialVersionUID = 1L;
        private static final Set<String> READ_ONLY = Set.of("_index", "_id", "_version", "_routing", "_now",
                "_type");
        private final transient List<String> ops;

        Ctx(List<String> ops) {
            this.ops = ops;
        }

        void init(String key, Object value) {
            super.put(key, value);
        }

        @Override
        public Object put(String key, Object value) {
            if (READ_ONLY.contains(key)) {
                throw new IllegalArgumentException(key + " cannot be updated");
            }
            if (key.equals("op") && !ops.contains(String.valueOf(value))) {
                throw new IllegalArgumentException("[op] must be one of " + ops + ", not [" + value + "]");
            }
            return super.put(key, value);
        }

        @Override
        public Object remove(Object key) {
            if (READ_ONLY.contains(key) || "op".equals(key)) {
                throw new IllegalArgumentException(key + " cannot be removed");
            }
            return super.remove(key);
        }
    }
}
