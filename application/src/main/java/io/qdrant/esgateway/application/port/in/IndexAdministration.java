package io.qdrant.esgateway.application.port.in;

import io.qdrant.esgateway.domain.index.AliasActions;
import io.qdrant.esgateway.domain.index.AliasMetadata;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.Mappings;
import java.util.List;

/** The index lifecycle: create, read, change mappings, delete, and the aliases over indices. */
public interface IndexAdministration {

    /** Creates the index with its storage and aliases, all or nothing. */
    IndexMetadata create(CreateIndexRequest request);

    /**
     * Creates an index from a create request's body (null for none) with the matching index template applied beneath
     * it, as Elasticsearch does on {@code PUT /{index}} and on a write's auto-create.
     */
    IndexMetadata create(String name, io.qdrant.esgateway.domain.json.JsonValue body);

    /** Index and component templates: stored, listed, deleted, simulated. */
    TemplateAdministration templates();

    /** Deletes the named concrete indices (a comma list; no wildcards, no aliases) and their storage. */
    List<IndexMetadata> delete(String expression);

    /** {@code DELETE /{index}?ignore_unavailable=true}: names of no index are skipped. */
    List<IndexMetadata> delete(String expression, boolean ignoreUnavailable);

    /** The indices an expression names (wildcards and aliases expand), with their aliases. */
    List<IndexDescription> describe(String expression, CatalogView.Options options);

    /** True if every part of the expression names an index or alias (wildcards must match something). */
    boolean exists(String expression);

    /** Merges {@code update} into the mapping of every index the expression names; all or none change. */
    List<IndexMetadata> putMapping(String expression, Mappings update);

    /** Makes recent writes searchable: every acknowledged write already is, so this only resolves the target. */
    /** {@code PUT /{index}/_settings}: changes the dynamic settings of every index the expression names, or none. */
    List<IndexMetadata> putSettings(String expression, io.qdrant.esgateway.domain.json.JsonValue body);

    List<IndexMetadata> refresh(String expression);

    /**
     * As {@link #putMapping(String, Mappings)}, the expression's wildcards expanded with {@code options}
     * ({@code expand_wildcards}; Elasticsearch's default is {@code open,closed}).
     */
    List<IndexMetadata> putMapping(String expression, Mappings update, CatalogView.Options options);

    /** As {@link #putSettings(String, io.qdrant.esgateway.domain.json.JsonValue)}, expanded with {@code options}. */
    List<IndexMetadata> putSettings(String expression, io.qdrant.esgateway.domain.json.JsonValue body,
                                    CatalogView.Options options);

    /**
     * As {@link #refresh(String)}, expanded with {@code options}: a closed index a wildcard reaches (with
     * {@code expand_wildcards} {@code closed} or {@code all}) is refused as a named one is.
     */
    List<IndexMetadata> refresh(String expression, CatalogView.Options options);

    /**
     * {@code POST /{index}/_close}: the named indices (no wildcards or {@code _all}, as Elasticsearch's
     * {@code action.destructive_requires_name}) refuse reads and writes of their documents until opened again;
     * returns those that were open.
     */
    List<IndexMetadata> close(String expression, io.qdrant.esgateway.domain.index.CatalogView.Options options);

    /** {@code POST /{index}/_open}: the named indices take reads and writes again; returns those that were closed. */
    List<IndexMetadata> open(String expression, io.qdrant.esgateway.domain.index.CatalogView.Options options);

    /** Applies a batch of alias actions atomically (validated as a whole first). */
    void updateAliases(List<AliasActions.Action> actions);

    /** The current catalog snapshot, for alias listings. */
    CatalogView catalog();

    /**
     * The tokens of an {@code _analyze} request, against the index an expression names (its analysis settings and
     * field mappings) or, without one, the built-in components.
     */
    default java.util.List<io.qdrant.esgateway.domain.analysis.AnalyzedToken> analyze(
            java.util.Optional<String> index, io.qdrant.esgateway.domain.analysis.AnalyzeRequest request) {
        throw io.qdrant.esgateway.domain.error.GatewayException.unsupported("[_analyze]");
    }

    /** {@code _analyze} with {@code explain: true}: each stage's output (see {@link #analyze}). */
    default io.qdrant.esgateway.domain.analysis.AnalyzeDetail explainAnalyze(
            java.util.Optional<String> index, io.qdrant.esgateway.domain.analysis.AnalyzeRequest request) {
        throw io.qdrant.esgateway.domain.error.GatewayException.unsupported("[explain] in [_analyze]");
    }

    record IndexDescription(IndexMetadata index, List<AliasMetadata> aliases) {
    }

    /** {@code PUT _scripts/{id}}: keeps (or replaces) a stored script. */
    void putStoredScript(String id, io.qdrant.esgateway.domain.script.StoredScript script);

    /** {@code GET _scripts/{id}}. */
    java.util.Optional<io.qdrant.esgateway.domain.script.StoredScript> storedScript(String id);

    /** {@code DELETE _scripts/{id}}; {@code RESOURCE_NOT_FOUND} when there is none. */
    void deleteStoredScript(String id);
}
