package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.ObjectParseErrors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The actions of {@code POST /_aliases}, applied in order to a {@link CatalogView} as one batch: the whole batch is
 * validated against the resulting state before anything is written, and {@link Plan} is written atomically.
 */
public final class AliasActions {

    /** One action of the batch. */
    public sealed interface Action {
        record Add(List<String> indices, List<String> aliases, AliasProperties properties) implements Action {
        }

        record Remove(List<String> indices, List<String> aliases, Optional<Boolean> mustExist) implements Action {
        }

        record RemoveIndex(List<String> indices) implements Action {
        }
    }

    /** The complete alias set after the batch, and the indices the batch deletes ({@code remove_index}). */
    public record Plan(List<AliasMetadata> aliases, Set<String> removedIndices) {
    }

    /** The options Elasticsearch's parser of each action knows, for its "did you mean" suggestions. */
    private static final Map<String, List<String>> KNOWN = new LinkedHashMap<>();

    static {
        KNOWN.put("add", List.of("index", "indices", "alias", "aliases", "filter", "routing", "index_routing",
                "index-routing", "indexRouting", "search_routing", "search-routing", "searchRouting",
                "is_write_index", "is_hidden"));
        KNOWN.put("remove", List.of("index", "indices", "alias", "aliases", "must_exist"));
        KNOWN.put("remove_index", List.of("index", "indices", "alias", "aliases"));
    }

    private AliasActions() {
    }

    public static List<Action> parse(JsonValue body) {
        if (body == null) {
            throw GatewayException.parse("request body is required");
        }
        JsonObject root = JsonReads.object(body, JsonReads::parseError, "[aliases] body");
        List<Action> actions = new ArrayList<>();
        for (Map.Entry<String, JsonValue> e : root.members().entrySet()) {
            if (!e.getKey().equals("actions")) {
                throw ObjectParseErrors.unknownField("aliases", e.getKey(), root.keyAt(e.getKey()), List.of("actions"));
            }
            List<JsonValue> list = e.getValue() instanceof JsonArray a ? a.elements() : List.of(e.getValue());
            for (JsonValue item : list) {
                actions.add(action(item, e.getValue()));
            }
        }
        if (actions.isEmpty()) {
            // Elasticsearch 8.15's REST layer checks this before request validation would say "no actions"
            throw GatewayException.illegalArgument("No action specified");
        }
        return actions;
    }

    /**
     * One entry of {@code actions}. Its errors are Elasticsearch's: the cause of "[l:c] [aliases] failed to parse
     * field [actions]", where ES's parser stood — at the offending value, or at the end of {@code actions} for an
     * action without its index or alias, which ES checks once the list is read.
     */
    private static Action action(JsonValue item, JsonValue actionsValue) {
        JsonObject object = JsonReads.object(item, JsonReads::parseError, "[aliases] action");
        if (object.members().size() > 1) {
            throw ObjectParseErrors.failedToParse("aliases", "actions", object.end(), new GatewayException(
                    ErrorKind.X_CONTENT_PARSE, "Failed to build [alias_action] after last required field arrived",
                    Map.of(), GatewayException.illegalArgument("Too many operations declared on operation entry")));
        }
        if (object.members().size() != 1) {
            throw new GatewayException(ErrorKind.X_CONTENT_PARSE,
                    "[alias_action] expected exactly one action (add, remove or remove_index), got "
                            + object.members().keySet());
        }
        Map.Entry<String, JsonValue> only = object.members().entrySet().iterator().next();
        String type = only.getKey();
        if (!KNOWN.containsKey(type)) {
            throw ObjectParseErrors.failedToParse("aliases", "actions", only.getValue().at(),
                    ObjectParseErrors.unknownField("alias_action", type, object.keyAt(type), KNOWN.keySet()));
        }
        JsonObject body = JsonReads.object(only.getValue(), JsonReads::parseError, "[" + type + "]");
        List<String> indices = new ArrayList<>();
        List<String> aliases = new ArrayList<>();
        Optional<Boolean> mustExist = Optional.empty();
        AliasProperties.Builder props = new AliasProperties.Builder();
        for (Map.Entry<String, JsonValue> e : body.members().entrySet()) {
            String key = e.getKey();
            switch (key) {
                case "index" -> indices.add(string(type, key, e.getValue()));
                case "indices" -> indices.addAll(strings(type, key, e.getValue()));
                case "alias" -> aliases.add(string(type, key, e.getValue()));
                case "aliases" -> aliases.addAll(strings(type, key, e.getValue()));
                case "must_exist" -> {
                    if (!type.equals("remove")) {
                        throw unknownField(type, key, body, e.getValue());
                    }
                    mustExist = Optional.of(JsonReads.bool(e.getValue()).orElseThrow(
                            () -> GatewayException.parse("[must_exist] must be a boolean")));
                }
                default -> {
                    if (!type.equals("add") || !AliasProperties.read(key, e.getValue(), props)) {
                        throw unknownField(type, key, body, e.getValue());
                    }
                }
            }
        }
        if (indices.isEmpty()) {
            throw missing(actionsValue, "One of [index] or [indices] is required");
        }
        return switch (type) {
            case "add" -> {
                if (aliases.isEmpty()) {
                    throw missing(actionsValue, "One of [alias] or [aliases] is required");
                }
                yield new Action.Add(indices, aliases, props.build());
            }
            case "remove" -> {
                if (aliases.isEmpty()) {
                    throw missing(actionsValue, "One of [alias] or [aliases] is required");
                }
                yield new Action.Remove(indices, aliases, mustExist);
            }
            default -> {
                if (!aliases.isEmpty()) {
                    throw GatewayException.illegalArgument("[remove_index] does not take [alias] or [aliases]");
                }
                yield new Action.RemoveIndex(indices);
            }
        };
    }

    /** Applies the batch in order to {@code view}; throws if any action is invalid, before anything is written. */
    public static Plan plan(CatalogView view, List<Action> actions) {
        Map<String, IndexMetadata> indices = new TreeMap<>(view.indices());
        Map<String, AliasMetadata> aliases = new LinkedHashMap<>();
        view.aliases().forEach(a -> aliases.put(key(a.alias(), a.index()), a));
        Set<String> removed = new TreeSet<>();
        for (Action action : actions) {
            CatalogView current = new CatalogView(view.version(), new TreeMap<>(indices), List.copyOf(aliases.values()));
            switch (action) {
                case Action.Add add -> {
                    List<IndexMetadata> targets = resolveAll(current, add.indices());
                    IndexBlocks.check(targets, IndexBlocks.Level.METADATA_WRITE);
                    for (String alias : add.aliases()) {
                        IndexName.validateAlias(alias);
                        for (IndexMetadata index : targets) {
                            aliases.put(key(alias, index.name()), add.properties().on(alias, index.name()));
                        }
                    }
                }
                case Action.Remove remove -> {
                    List<IndexMetadata> targets = resolveAll(current, remove.indices());
                    IndexBlocks.check(targets, IndexBlocks.Level.METADATA_WRITE);
                    boolean any = false;
                    for (IndexMetadata index : targets) {
                        for (AliasMetadata a : current.aliasesOf(index.name())) {
                            if (remove.aliases().stream().anyMatch(p -> p.equals("_all")
                                    || IndexName.matches(p, a.alias()))) {
                                aliases.remove(key(a.alias(), a.index()));
                                any = true;
                            }
                        }
                    }
                    if (!any && remove.mustExist().orElse(true)) {
                        throw GatewayException.aliasesNotFound(remove.aliases());
                    }
                }
                case Action.RemoveIndex removeIndex -> {
                    for (String expression : removeIndex.indices()) {
                        if (!IndexName.isWildcard(expression) && current.isAlias(expression)
                                && !indices.containsKey(expression)) {
                            throw CatalogView.matchesAlias(expression);
                        }
                        for (IndexMetadata index : current.resolve(expression, new CatalogView.Options(false, false).withStates(true, true))) {
                            indices.remove(index.name());
                            removed.add(index.name());
                            aliases.values().removeIf(a -> a.index().equals(index.name()));
                        }
                    }
                }
            }
        }
        List<AliasMetadata> result = List.copyOf(aliases.values());
        CatalogView.validateAliases(indices, result);
        return new Plan(result, removed);
    }

    private static List<IndexMetadata> resolveAll(CatalogView view, List<String> expressions) {
        List<IndexMetadata> out = new ArrayList<>();
        for (String expression : expressions) {
            for (IndexMetadata index : view.resolve(expression, new CatalogView.Options(false, false).withStates(true, true))) {
                if (!out.contains(index)) {
                    out.add(index);
                }
            }
        }
        return out;
    }

    private static String key(String alias, String index) {
        return alias + "\u0000" + index;
    }

    private static String string(String action, String key, JsonValue value) {
        return JsonReads.text(value).orElseThrow(() -> new GatewayException(ErrorKind.X_CONTENT_PARSE,
                "[" + action + "] failed to parse field [" + key + "]: expected a string"));
    }

    private static List<String> strings(String action, String key, JsonValue value) {
        if (value instanceof JsonArray a) {
            List<String> out = new ArrayList<>();
            a.elements().forEach(v -> out.add(string(action, key, v)));
            return out;
        }
        return List.of(string(action, key, value));
    }

    /** An action's unknown option, inside ES's "[alias_action] failed to parse field [type]" at its value. */
    private static GatewayException unknownField(String type, String key, JsonObject body, JsonValue value) {
        return ObjectParseErrors.failedToParse("aliases", "actions", value.at(), ObjectParseErrors.failedToParse(
                "alias_action", type, value.at(), ObjectParseErrors.unknownField(type, key, body.keyAt(key),
                        KNOWN.get(type))));
    }

    /** An action without its index or alias: ES reports it at the end of {@code actions}. */
    private static GatewayException missing(JsonValue actionsValue, String what) {
        return ObjectParseErrors.failedToParse("aliases", "actions", JsonValue.Position.endOf(actionsValue),
                GatewayException.illegalArgument(what));
    }

    /**
     * A single {@code PUT /{index}/_alias/{name}} as a batch of one add action. Its body is read as Elasticsearch
     * 8.15's put-alias handler reads it: {@code index} and {@code alias} (which win over the path's, and are all
     * that names them on {@code PUT /_alias} and the other path forms without them), {@code routing},
     * {@code index_routing} / {@code search_routing} (also spelled {@code indexRouting}, {@code index-routing}, …),
     * {@code is_write_index} and {@code filter} are used; every other key, {@code is_hidden} included, is ignored
     * (checked against the oracle).
     *
     * @param indexExpression the path's index expression, or null when the path has none
     * @param alias the path's alias name, or null when the path has none
     */
    public static Action add(String indexExpression, String alias, JsonValue body) {
        String index = indexExpression;
        String name = alias;
        if (body instanceof JsonObject o) {
            index = bodyText(o, "index").orElse(index);
            name = bodyText(o, "alias").orElse(name);
        }
        List<String> indices = index == null ? List.of() : List.of(index.split(","));
        if (indices.isEmpty() || indices.stream().allMatch(String::isEmpty)) {
            throw GatewayException.illegalArgument("[indices] can't be empty");
        }
        if (name == null || name.isEmpty()) {
            throw GatewayException.illegalArgument("[alias] can't be empty string");
        }
        AliasProperties props = body == null ? AliasProperties.NONE : AliasProperties.parseLenient(name, body);
        return new Action.Add(indices, List.of(name), props);
    }

    /** The index or alias a put-alias body names: a scalar value as its text (an object or array names none). */
    public static Optional<String> bodyText(JsonObject body, String key) {
        JsonValue v = body.get(key);
        return v == null || v instanceof JsonObject || v instanceof JsonArray ? Optional.empty() : JsonReads.text(v);
    }

    /** A single {@code DELETE /{index}/_alias/{name}} as a batch of one remove action. */
    public static Action remove(String indexExpression, String aliasExpression) {
        return new Action.Remove(List.of(indexExpression.split(",")), List.of(aliasExpression.split(",")),
                Optional.empty());
    }
}
