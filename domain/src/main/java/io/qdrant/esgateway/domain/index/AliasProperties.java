package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The per-alias properties shared by index creation, {@code PUT _alias} and {@code _aliases} add actions.
 * {@code filter} is checked as a query when it is read (ES refuses an alias whose filter does not parse).
 */
record AliasProperties(Optional<String> indexRouting, Optional<String> searchRouting, Optional<Boolean> isWriteIndex,
                       Optional<Boolean> isHidden, Optional<JsonValue.JsonObject> filter) {
    static final AliasProperties NONE = new AliasProperties(Optional.empty(), Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty());

    AliasProperties(Optional<String> indexRouting, Optional<String> searchRouting, Optional<Boolean> isWriteIndex,
                    Optional<Boolean> isHidden) {
        this(indexRouting, searchRouting, isWriteIndex, isHidden, Optional.empty());
    }

    /** The alias on {@code index}; refused, as Elasticsearch does, when its index routing has several values. */
    AliasMetadata on(String alias, String index) {
        if (indexRouting.isPresent() && indexRouting.get().indexOf(',') >= 0) {
            throw GatewayException.illegalArgument("alias [" + alias
                    + "] has several index routing values associated with it");
        }
        return new AliasMetadata(alias, index, indexRouting, searchRouting, isWriteIndex, isHidden, filter);
    }

    /** Reads one property; returns false if {@code key} is not an alias property. */
    static boolean read(String key, JsonValue value, Builder b) {
        switch (key) {
            case "filter" -> b.filter = filter(value);
            case "routing" -> {
                String r = text(key, value);
                b.indexRouting = Optional.of(r);
                b.searchRouting = Optional.of(r);
            }
            case "index_routing" -> b.indexRouting = Optional.of(text(key, value));
            case "search_routing" -> b.searchRouting = Optional.of(text(key, value));
            case "is_write_index" -> b.isWriteIndex = Optional.of(bool(key, value));
            case "is_hidden" -> b.isHidden = Optional.of(bool(key, value));
            default -> {
                return false;
            }
        }
        return true;
    }

    static AliasProperties parse(String alias, JsonValue body) {
        Builder b = new Builder();
        for (Map.Entry<String, JsonValue> e : JsonReads.object(body, JsonReads::parseError, "alias [" + alias + "]")
                .members().entrySet()) {
            if (!read(e.getKey(), e.getValue(), b)) {
                throw GatewayException.parse("unknown field [" + e.getKey() + "] for alias [" + alias + "]");
            }
        }
        return b.build();
    }

    /** The put-alias endpoint's reading: known keys (and their camelCase / hyphenated spellings), others ignored. */
    static AliasProperties parseLenient(String alias, JsonValue body) {
        Builder b = new Builder();
        for (Map.Entry<String, JsonValue> e : JsonReads.object(body, JsonReads::parseError, "alias [" + alias + "]")
                .members().entrySet()) {
            String key = switch (e.getKey()) {
                case "indexRouting", "index-routing" -> "index_routing";
                case "searchRouting", "search-routing" -> "search_routing";
                default -> e.getKey();
            };
            if (Set.of("routing", "index_routing", "search_routing", "is_write_index", "filter").contains(key)) {
                read(key, e.getValue(), b);
            }
        }
        return b.build();
    }

    /** The filter query as given; an empty object is no filter, as in ES. */
    private static Optional<JsonValue.JsonObject> filter(JsonValue value) {
        if (!(value instanceof JsonValue.JsonObject o)) {
            throw GatewayException.parse("[filter] must be an object");
        }
        return o.members().isEmpty() ? Optional.empty() : Optional.of(o);
    }

    private static String text(String key, JsonValue value) {
        return JsonReads.text(value).orElseThrow(() -> GatewayException.parse("[" + key + "] must be a string"));
    }

    private static boolean bool(String key, JsonValue value) {
        return JsonReads.bool(value).orElseThrow(() -> GatewayException.parse("[" + key + "] must be a boolean"));
    }

    static final class Builder {
        Optional<String> indexRouting = Optional.empty();
        Optional<String> searchRouting = Optional.empty();
        Optional<Boolean> isWriteIndex = Optional.empty();
        Optional<Boolean> isHidden = Optional.empty();
        Optional<JsonValue.JsonObject> filter = Optional.empty();

        AliasProperties build() {
            return new AliasProperties(indexRouting, searchRouting, isWriteIndex, isHidden, filter);
        }
    }
}
