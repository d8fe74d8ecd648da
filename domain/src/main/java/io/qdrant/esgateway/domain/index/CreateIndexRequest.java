package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The body of {@code PUT /{index}}: settings, mappings and aliases, each optional. */
public record CreateIndexRequest(String name, IndexSettings settings, Mappings mappings, List<AliasMetadata> aliases) {

    public static CreateIndexRequest parse(String name, JsonValue body) {
        IndexName.validateIndex(name);
        IndexSettings settings = IndexSettings.DEFAULTS;
        Mappings mappings = Mappings.EMPTY;
        List<AliasMetadata> aliases = new ArrayList<>();
        if (body != null) {
            JsonObject root = JsonReads.object(body, JsonReads::parseError, "create index body");
            for (Map.Entry<String, JsonValue> e : root.members().entrySet()) {
                switch (e.getKey()) {
                    case "settings" -> settings = IndexSettings.parse(e.getValue());
                    case "mappings" -> mappings = Mappings.parse(e.getValue());
                    case "aliases" -> {
                        JsonObject object = JsonReads.object(e.getValue(), JsonReads::parseError, "[aliases]");
                        for (Map.Entry<String, JsonValue> a : object.members().entrySet()) {
                            IndexName.validateAlias(a.getKey());
                            if (a.getKey().equals(name)) {
                                throw GatewayException.invalidAliasName(a.getKey(),
                                        "an index or data stream exists with the same name as the alias");
                            }
                            aliases.add(AliasProperties.parse(a.getKey(), a.getValue()).on(a.getKey(), name));
                        }
                    }
                    default -> throw GatewayException.parse("unknown key [" + e.getKey() + "] for create index");
                }
            }
        }
        AnalysisReferences.check(mappings, settings);
        return new CreateIndexRequest(name, settings, mappings, aliases);
    }
}
