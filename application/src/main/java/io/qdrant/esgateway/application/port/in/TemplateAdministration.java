package io.qdrant.esgateway.application.port.in;

import io.qdrant.esgateway.domain.index.ComponentTemplate;
import io.qdrant.esgateway.domain.index.IndexTemplate;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.List;
import java.util.Optional;

/** Index and component templates ({@code /_index_template}, {@code /_component_template}). */
public interface TemplateAdministration {

    /** Stores an index template after Elasticsearch's checks; {@code create}: refuse an existing name. */
    void putIndexTemplate(IndexTemplate template, boolean create);

    /** Stores a component template after Elasticsearch's checks; {@code create}: refuse an existing name. */
    void putComponentTemplate(ComponentTemplate template, boolean create);

    /** All index templates, a wildcard's matches, or the one named (404 if missing). */
    List<IndexTemplate> indexTemplates(Optional<String> name);

    /** All component templates, a wildcard's matches, or the one named (404 if missing). */
    List<ComponentTemplate> componentTemplates(Optional<String> name);

    /** Deletes index templates by a comma list of names and wildcards. */
    void deleteIndexTemplates(String names);

    /** Deletes component templates by a comma list of names and wildcards; refused while in use. */
    void deleteComponentTemplates(String names);

    /** The answer of {@code POST /_index_template/_simulate_index/{index}}. */
    JsonObject simulateIndex(String index, Optional<IndexTemplate> extra);

    /** The answer of {@code POST /_index_template/_simulate[/{name}]}. */
    JsonObject simulateTemplate(Optional<String> name, Optional<IndexTemplate> body);
}
