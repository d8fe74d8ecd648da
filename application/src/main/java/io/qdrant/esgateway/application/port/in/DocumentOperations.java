package io.qdrant.esgateway.application.port.in;

import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.SourceFilter;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.document.Versioning;
import io.qdrant.esgateway.domain.document.Versioning.Condition;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.script.Script;
import java.util.List;
import java.util.Optional;

/**
 * Writing and reading documents by id. Single-document requests are batches of one: the same rules, and a failure
 * is thrown; a bulk request reports each item's outcome.
 */
public interface DocumentOperations {

    /** Executes the writes; every item gets an outcome, in order. Items on one index are committed together. */
    List<WriteOutcome> bulk(List<WriteCommand> commands);

    /** Executes one write and returns its result, or throws its failure. */
    Written write(WriteCommand command);

    /** The document with this id in the one index {@code target} names. */
    GetResult get(String target, String id);

    /**
     * As {@link #get(String, String)}, with the request's {@code routing}: refused with {@code routing_missing_exception}
     * when the index's mapping says {@code _routing.required: true} and there is none.
     */
    default GetResult get(String target, String id, Optional<String> routing) {
        return get(target, id);
    }

    /**
     * As {@link #get(String, String, Optional)}, with the request's {@code version}: a found document with another
     * version is a {@code version_conflict_engine_exception}; {@code Versioning.MATCH_ANY} asks for none.
     */
    GetResult get(String target, String id, Optional<String> routing, long version);

    /** Many documents, each from its own target; a failing target fails only its item. */
    List<GetOutcome> multiGet(List<GetCommand> commands);

    /** A write to one document. {@code target} is an index or alias (a missing index is created). */
    sealed interface WriteCommand {
        String target();

        boolean requireAlias();

        /**
         * The request's {@code routing} value. Documents are not placed by it (one shard per index); an index whose
         * mapping says {@code _routing.required: true} refuses a write without one, as Elasticsearch does.
         */
        Optional<String> routing();

        /** {@code command} with {@code routing} as its routing value. */
        static WriteCommand routed(WriteCommand command, Optional<String> routing) {
            return switch (command) {
                case Index i -> new Index(i.target(), i.id(), i.source(), i.createOnly(), i.condition(),
                        i.requireAlias(), routing);
                case Delete d -> new Delete(d.target(), d.id(), d.condition(), d.requireAlias(), routing);
                case Update u -> new Update(u.target(), u.id(), u.doc(), u.upsert(), u.docAsUpsert(), u.detectNoop(),
                        u.condition(), u.fetch(), u.requireAlias(), routing);
                case ScriptedUpdate u -> new ScriptedUpdate(u.target(), u.id(), u.script(), u.upsert(),
                        u.scriptedUpsert(), u.condition(), u.fetch(), u.requireAlias(), routing);
            };
        }

        /** {@code PUT _doc}, {@code POST _doc} (no id: generated), {@code _create} / {@code op_type=create}. */
        record Index(String target, Optional<String> id, JsonValue source, boolean createOnly, Condition condition,
                     boolean requireAlias, Optional<String> routing) implements WriteCommand {
            public Index(String target, Optional<String> id, JsonValue source, boolean createOnly, Condition condition,
                         boolean requireAlias) {
                this(target, id, source, createOnly, condition, requireAlias, Optional.empty());
            }
        }

        record Delete(String target, String id, Condition condition, boolean requireAlias, Optional<String> routing)
                implements WriteCommand {
            public Delete(String target, String id, Condition condition, boolean requireAlias) {
                this(target, id, condition, requireAlias, Optional.empty());
            }
        }

        /**
         * {@code _update}: merge {@code doc} into the current source; if the document is missing, create it from
         * {@code upsert}, or from {@code doc} when {@code docAsUpsert}. {@code fetch} says what to return as
         * {@code get._source}.
         */
        record Update(String target, String id, Optional<JsonObject> doc, Optional<JsonObject> upsert,
                      boolean docAsUpsert, boolean detectNoop, Condition condition, Optional<SourceFilter> fetch,
                      boolean requireAlias, Optional<String> routing) implements WriteCommand {
            public Update(String target, String id, Optional<JsonObject> doc, Optional<JsonObject> upsert,
                          boolean docAsUpsert, boolean detectNoop, Condition condition, Optional<SourceFilter> fetch,
                          boolean requireAlias) {
                this(target, id, doc, upsert, docAsUpsert, detectNoop, condition, fetch, requireAlias,
                        Optional.empty());
            }
        }

        /**
         * {@code _update} with a {@code script}: run over the current source ({@code ctx.op} decides between
         * index, noop and delete); if the document is missing, create it from {@code upsert}, run through the
         * script first when {@code scriptedUpsert}.
         */
        record ScriptedUpdate(String target, String id, Script script, Optional<JsonObject> upsert,
                              boolean scriptedUpsert, Condition condition, Optional<SourceFilter> fetch,
                              boolean requireAlias, Optional<String> routing) implements WriteCommand {
            public ScriptedUpdate(String target, String id, Script script, Optional<JsonObject> upsert,
                                  boolean scriptedUpsert, Condition condition, Optional<SourceFilter> fetch,
                                  boolean requireAlias) {
                this(target, id, script, upsert, scriptedUpsert, condition, fetch, requireAlias, Optional.empty());
            }
        }
    }

    enum Result {
        CREATED, UPDATED, DELETED, NOT_FOUND, NOOP;

        /** Computed once: every item of a {@code _bulk} answer writes it. */
        private final String esName = name().toLowerCase(java.util.Locale.ROOT);

        public String esName() {
            return esName;
        }
    }

    sealed interface WriteOutcome {
        /** The index the item addressed: the concrete index when it was resolved, else the target as given. */
        String index();

        String id();
    }

    /** A write that happened (or, for {@code noop} and {@code not_found}, was decided without changing anything). */
    record Written(String index, String id, Result result, DocumentVersion version, Optional<StoredDocument> got)
            implements WriteOutcome {
    }

    record Failed(String index, String id, GatewayException error) implements WriteOutcome {
    }

    /** A looked-up document: found or not, in a concrete index. */
    /** A document read by id; {@code sourceHidden} when its index's mapping has {@code _source.enabled: false}. */
    record GetResult(String index, String id, Optional<StoredDocument> document, boolean sourceHidden) {
        public GetResult(String index, String id, Optional<StoredDocument> document) {
            this(index, id, document, false);
        }
    }

    /**
     * One document of a multi-get; {@code routing}: the item's routing value (its own, else the request's), checked as
     * a get's; {@code version}: the version it must have ({@code Versioning.MATCH_ANY}: any).
     */
    record GetCommand(String target, String id, SourceFilter source, Optional<String> routing, long version) {
        public GetCommand(String target, String id, SourceFilter source) {
            this(target, id, source, Optional.empty(), Versioning.MATCH_ANY);
        }

        public GetCommand(String target, String id, SourceFilter source, Optional<String> routing) {
            this(target, id, source, routing, Versioning.MATCH_ANY);
        }
    }

    sealed interface GetOutcome {
        record Found(GetResult result, SourceFilter source) implements GetOutcome {
        }

        record Error(String index, String id, GatewayException error) implements GetOutcome {
        }
    }
}
