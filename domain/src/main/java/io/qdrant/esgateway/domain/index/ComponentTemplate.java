package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.Map;
import java.util.Optional;

/** A component template ({@code PUT /_component_template/{name}}): a block index templates compose in order. */
public record ComponentTemplate(String name, TemplateBody template, Optional<Long> version, Optional<JsonObject> meta) {

    /** Reads the body of {@code PUT /_component_template/{name}}. */
    public static ComponentTemplate parse(String name, JsonValue body) {
        JsonObject object = JsonReads.object(body, JsonReads::parseError, "[component_template]");
        TemplateBody template = null;
        Optional<Long> version = Optional.empty();
        Optional<JsonObject> meta = Optional.empty();
        for (Map.Entry<String, JsonValue> e : object.members().entrySet()) {
            switch (e.getKey()) {
                case "template" -> template = TemplateBody.parse(e.getValue(), "component_template");
                case "version" -> version = Optional.of(IndexTemplate.longField("version", e.getValue()));
                case "_meta" -> meta = Optional.of(JsonReads.object(e.getValue(), JsonReads::parseError, "[_meta]"));
                case "deprecated" -> throw GatewayException.unsupported("component template [deprecated]");
                default -> throw new GatewayException(ErrorKind.X_CONTENT_PARSE,
                        "[component_template] unknown field [" + e.getKey() + "]");
            }
        }
        if (template == null) {
            throw GatewayException.illegalArgument("Required [template]");
        }
        return new ComponentTemplate(name, template, version, meta);
    }

    /**
     * Checks the template's own settings, mappings and aliases as Elasticsearch does when it is stored (each error as
     * the index creation would give it).
     */
    public void validate() {
        IndexTemplate.validateName(name);
        IndexSettings settings = IndexSettings.parse(template.flatSettings());
        template.mappings().ifPresent(m -> AnalysisReferences.check(Mappings.parse(m), settings));
        template.parsedAliases("_na_");
    }

    /** The stored form, and the {@code component_template} object of {@code GET}. */
    public JsonObject toJson() {
        JsonObjectBuilder b = JsonObjectBuilder.object().put("template", template.toJson());
        version.ifPresent(v -> b.put("version", v));
        meta.ifPresent(m -> b.put("_meta", m));
        return b.build();
    }
}
