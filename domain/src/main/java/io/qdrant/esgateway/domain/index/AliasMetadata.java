package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.Optional;

/**
 * One alias on one index. Routing values are echoed only: the gateway has one logical shard per index, so routing
 * never changes where a document lives. {@code isWriteIndex} absent means "not said" (ES's null), which matters for
 * write resolution when the alias has a single index. {@code filter} is the alias's query as given (validated when
 * the alias is made); every read through the alias is limited to its matches ({@link AliasFilters}).
 */
public record AliasMetadata(String alias, String index, Optional<String> indexRouting, Optional<String> searchRouting,
                            Optional<Boolean> isWriteIndex, Optional<Boolean> isHidden, Optional<JsonObject> filter) {

    public AliasMetadata(String alias, String index, Optional<String> indexRouting, Optional<String> searchRouting,
                         Optional<Boolean> isWriteIndex, Optional<Boolean> isHidden) {
        this(alias, index, indexRouting, searchRouting, isWriteIndex, isHidden, Optional.empty());
    }

    public static AliasMetadata plain(String alias, String index) {
        return new AliasMetadata(alias, index, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    public AliasMetadata onIndex(String otherIndex) {
        return new AliasMetadata(alias, otherIndex, indexRouting, searchRouting, isWriteIndex, isHidden, filter);
    }

    /** The alias body as ES renders it under {@code "aliases"}. */
    public JsonObject toJson() {
        JsonObjectBuilder b = JsonObjectBuilder.object();
        filter.ifPresent(f -> b.put("filter", f));
        indexRouting.ifPresent(r -> b.put("index_routing", r));
        searchRouting.ifPresent(r -> b.put("search_routing", r));
        isWriteIndex.ifPresent(w -> b.put("is_write_index", w));
        isHidden.ifPresent(h -> b.put("is_hidden", h));
        return b.build();
    }
}
