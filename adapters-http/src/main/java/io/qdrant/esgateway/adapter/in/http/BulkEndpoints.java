package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.DocumentOperations;
import io.qdrant.esgateway.application.port.in.DocumentOperations.Failed;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteOutcome;
import io.qdrant.esgateway.application.port.in.DocumentOperations.Written;
import io.qdrant.esgateway.domain.document.SourceFilter;
import io.qdrant.esgateway.domain.document.UpdateBody;
import io.qdrant.esgateway.domain.document.Versioning;
import io.qdrant.esgateway.domain.document.Versioning.Condition;
import io.qdrant.esgateway.domain.document.Versioning.VersionType;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * {@code _bulk}: NDJSON action lines (each followed by a source line, except {@code delete}). Every action line is
 * read and validated before any item runs; a bad action line fails the whole request naming its line number. A
 * bad document fails only its item.
 *
 * <pre>
 * printf '{"index":{"_index":"books","_id":"1"}}\n{"title":"Dune"}\n{"delete":{"_index":"books","_id":"2"}}\n' |
 *   curl -XPOST localhost:9200/_bulk -H 'Content-Type: application/x-ndjson' --data-binary @-
 * </pre>
 */
final class BulkEndpoints {
    private static final String PARAMS = "refresh,routing,timeout,wait_for_active_shards,require_alias,pipeline,"
            + "_source,_source_includes,_source_excludes";
    private static final Set<String> METADATA = Set.of("_index", "_id", "routing", "if_seq_no", "if_primary_term",
            "require_alias", "retry_on_conflict", "_source", "version", "version_type");
    private static final Set<String> UNSUPPORTED_METADATA = Set.of("pipeline",
            "dynamic_templates", "require_data_stream", "list_executed_pipelines");

    private final DocumentOperations documents;
    private final JsonCodec codec;

    BulkEndpoints(DocumentOperations documents, JsonCodec codec) {
        this.documents = documents;
        this.codec = codec;
    }

    void register(Router router) {
        router.add(route("POST,PUT", "/_bulk", "bulk", PARAMS, true, this::bulk))
                .add(route("POST,PUT", "/{index}/_bulk", "bulk", PARAMS, true, this::bulk));
    }

    /** One parsed item: its action name, and the command (or the failure of its source line). */
    private record Item(String action, WriteCommand command, GatewayException sourceError, String index, String id) {
    }

    private EsResponse bulk(EsRequest request) {
        long start = System.nanoTime();
        boolean forced = DocumentEndpoints.refresh(request);
        DocumentEndpoints.unsupportedWriteParams(request);
        Optional<String> defaultIndex = request.optionalPathParam("index");
        boolean requireAlias = request.flag("require_alias", false);
        SourceFilter defaultSource = DocumentEndpoints.sourceFilter(request);
        boolean sourceParamGiven = request.param("_source").isPresent() || request.param("_source_includes").isPresent()
                || request.param("_source_excludes").isPresent();
        List<Item> items = authorized(parse(request.rawBody(), defaultIndex, requireAlias,
                sourceParamGiven ? Optional.of(defaultSource) : Optional.empty(), request.param("routing")));

        List<WriteCommand> runnable = new ArrayList<>(items.size());
        for (Item item : items) {
            if (item.sourceError() == null) {
                runnable.add(item.command());
            }
        }
        List<WriteOutcome> outcomes = documents.bulk(runnable);
        List<BulkResponse.Item> results = new ArrayList<>(items.size());
        int next = 0;
        for (Item item : items) {
            if (item.sourceError() != null) {
                results.add(new BulkResponse.Item(item.action(), null, failure(item.index(), item.id(),
                        item.sourceError())));
            } else {
                switch (outcomes.get(next++)) {
                    case Written w -> results.add(new BulkResponse.Item(item.action(), w, null));
                    case Failed f -> results.add(new BulkResponse.Item(item.action(), null,
                            failure(f.index(), f.id(), f.error())));
                }
            }
        }
        long took = (System.nanoTime() - start) / 1_000_000;
        boolean pretty = request.param("pretty").map(p -> !p.equals("false")).orElse(false);
        return pretty ? EsResponse.ok(BulkResponse.tree(took, results, forced))
                : EsResponse.compactJson(200, codec.write(g -> BulkResponse.write(g, took, results, forced),
                        BulkResponse.EXPECTED_ITEM_BYTES * results.size()));
    }

    /** The items, those the caller may not run failing alone with their 403 (ES's per-item authorization). */
    private static List<Item> authorized(List<Item> items) {
        if (!AccessControl.CALLER.isBound()) {
            return items;
        }
        List<Item> out = new ArrayList<>(items.size());
        for (Item item : items) {
            GatewayException denied = item.sourceError() == null ? ItemAccess.deniedWrite(item.action(), item.index())
                    : null;
            out.add(denied == null ? item : new Item(item.action(), null, denied, item.index(), item.id()));
        }
        return out;
    }

    private static JsonObjectBuilder failure(String index, String id, GatewayException e) {
        return DocumentResponses.failed(index, id, e).put("status", ErrorBodies.status(e.kind()))
                .put("error", ErrorBodies.cause(e, true));
    }

    private List<Item> parse(byte[] body, Optional<String> defaultIndex, boolean requireAlias,
                             Optional<SourceFilter> defaultSource, Optional<String> defaultRouting) {
        if (body.length > 0 && body[body.length - 1] != '\n') {
            throw GatewayException.illegalArgument("The bulk request must be terminated by a newline [\\n]");
        }
        List<Line> lines = lines(body);
        List<Item> items = new ArrayList<>();
        List<String> validation = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            Line line = lines.get(i);
            int lineNumber = i + 1;
            i++;
            if (line.isBlank(body)) {
                continue;
            }
            JsonObject action = actionLine(body, line, lineNumber);
            Map.Entry<String, JsonValue> only = action.members().entrySet().iterator().next();
            String type = only.getKey();
            JsonObject meta = metadata(only.getValue(), lineNumber);
            String index = meta.has("_index") ? text(meta, "_index", lineNumber) : defaultIndex.orElse(null);
            String id = meta.has("_id") ? text(meta, "_id", lineNumber) : null;
            boolean itemRequireAlias = meta.has("require_alias")
                    ? JsonReads.bool(meta.get("require_alias")).orElse(false) : requireAlias;
            Condition condition = new Condition(longMeta(meta, "if_seq_no", lineNumber),
                    longMeta(meta, "if_primary_term", lineNumber)).withVersion(version(meta, lineNumber),
                    meta.has("version_type") ? VersionType.parse(text(meta, "version_type", lineNumber))
                            : VersionType.INTERNAL);
            Optional<String> routing = meta.has("routing") ? Optional.of(text(meta, "routing", lineNumber))
                    : defaultRouting;
            if (index == null) {
                validation.add("index is missing");
            }
            if (id == null && (type.equals("delete") || type.equals("update"))) {
                validation.add("id is missing");
            }
            if (type.equals("update")) {
                if (condition.version() != Versioning.MATCH_ANY || condition.external()) {
                    throw GatewayException.illegalArgument("Update requests do not support versioning. Please use"
                            + " `if_seq_no` and `if_primary_term` instead");
                }
            } else {
                validation.addAll(condition.problems(type.equals("create"), id != null || type.equals("delete")));
            }
            if (type.equals("delete")) {
                items.add(new Item(type, new WriteCommand.Delete(String.valueOf(index), String.valueOf(id), condition,
                        itemRequireAlias, routing), null, index, id));
                continue;
            }
            // skip blank lines between an action and its source, as Elasticsearch's line reader does not: a blank
            // line here is the (empty) source
            if (i >= lines.size()) {
                throw GatewayException.illegalArgument("Action/metadata line [" + lineNumber
                        + "] is not followed by a source line");
            }
            Line sourceLine = lines.get(i);
            i++;
            if (type.equals("update")) {
                UpdateBody update;
                try {
                    update = UpdateBody.parse(codec.parse(body, sourceLine.start(), sourceLine.length()));
                } catch (GatewayException e) {
                    throw new GatewayException(e.kind(), "[" + (lineNumber + 1) + "] " + e.reason(), e.metadata(), e);
                }
                Optional<SourceFilter> fetch = meta.has("_source")
                        ? Optional.of(SourceFilter.fromJson(meta.get("_source"))) : update.source().or(() -> defaultSource);
                WriteCommand command = update.script().isPresent()
                        ? new WriteCommand.ScriptedUpdate(String.valueOf(index), String.valueOf(id),
                                update.script().get(), update.upsert(), update.scriptedUpsert(), condition, fetch,
                                itemRequireAlias)
                        : new WriteCommand.Update(String.valueOf(index), String.valueOf(id), update.doc(),
                                update.upsert(), update.docAsUpsert(), update.detectNoop(), condition, fetch,
                                itemRequireAlias);
                items.add(new Item(type, routing.isEmpty() ? command : WriteCommand.routed(command, routing), null,
                        index, id));
                continue;
            }
            JsonValue source;
            try {
                source = codec.parse(body, sourceLine.start(), sourceLine.length());
            } catch (GatewayException e) {
                items.add(new Item(type, null, new GatewayException(ErrorKind.DOCUMENT_PARSING, "failed to parse",
                        Map.of(), e), index, id));
                continue;
            }
            items.add(new Item(type, new WriteCommand.Index(String.valueOf(index), Optional.ofNullable(id), source,
                    type.equals("create"), condition, itemRequireAlias, routing), null, index, id));
        }
        if (!validation.isEmpty()) {
            throw GatewayException.validationFailed(validation);
        }
        if (items.isEmpty()) {
            throw new GatewayException(ErrorKind.ACTION_REQUEST_VALIDATION, "Validation Failed: 1: no requests added;");
        }
        return items;
    }

    /** One line of the body: its bytes from {@code start}, without the newline (and a {@code \r} before it). */
    private record Line(int start, int length) {
        /** Whitespace only, as {@link String#isBlank} decides for the line's text. */
        boolean isBlank(byte[] body) {
            boolean ascii = true;
            for (int k = start; k < start + length; k++) {
                byte b = body[k];
                if (b < 0) {
                    ascii = false;
                } else if (!Character.isWhitespace(b)) {
                    return false;
                }
            }
            return ascii || new String(body, start, length, StandardCharsets.UTF_8).isBlank();
        }
    }

    private static List<Line> lines(byte[] body) {
        int newlines = 0;
        for (byte b : body) {
            if (b == '\n') {
                newlines++;
            }
        }
        List<Line> out = new ArrayList<>(newlines);
        int start = 0;
        for (int k = 0; k < body.length; k++) {
            if (body[k] == '\n') {
                int end = k > start && body[k - 1] == '\r' ? k - 1 : k;
                out.add(new Line(start, end - start));
                start = k + 1;
            }
        }
        return out;
    }

    private JsonObject actionLine(byte[] body, Line line, int lineNumber) {
        JsonObject simple = BulkActionLine.simple(body, line.start(), line.length());
        if (simple != null) {
            return simple;
        }
        JsonValue parsed;
        try {
            parsed = codec.parse(body, line.start(), line.length());
        } catch (GatewayException e) {
            throw GatewayException.illegalArgument("Malformed action/metadata line [" + lineNumber + "]: "
                    + e.reason());
        }
        if (!(parsed instanceof JsonObject object) || object.members().isEmpty()) {
            throw GatewayException.illegalArgument("Malformed action/metadata line [" + lineNumber
                    + "], expected START_OBJECT or END_OBJECT but found [" + parsed.tokenName() + "]");
        }
        String type = object.members().keySet().iterator().next();
        if (!Set.of("index", "create", "update", "delete").contains(type)) {
            throw GatewayException.illegalArgument("Malformed action/metadata line [" + lineNumber
                    + "], expected field [create], [delete], [index] or [update] but found [" + type + "]");
        }
        if (object.members().size() > 1) {
            throw GatewayException.illegalArgument("Malformed action/metadata line [" + lineNumber
                    + "], expected a single action but found " + object.members().keySet());
        }
        return object;
    }

    private static JsonObject metadata(JsonValue value, int lineNumber) {
        if (!(value instanceof JsonObject meta)) {
            throw GatewayException.illegalArgument("Malformed action/metadata line [" + lineNumber
                    + "], expected START_OBJECT but found [" + value.tokenName() + "]");
        }
        for (String key : meta.members().keySet()) {
            if (UNSUPPORTED_METADATA.contains(key)) {
                throw GatewayException.unsupported("[" + key + "] in bulk action/metadata line [" + lineNumber + "]");
            }
            if (!METADATA.contains(key)) {
                throw GatewayException.illegalArgument("Action/metadata line [" + lineNumber
                        + "] contains an unknown parameter [" + key + "]");
            }
        }
        return meta;
    }

    private static String text(JsonObject meta, String key, int lineNumber) {
        JsonValue v = meta.get(key);
        if (v instanceof JsonObject || v instanceof JsonValue.JsonArray) {
            throw GatewayException.illegalArgument("Malformed action/metadata line [" + lineNumber
                    + "], expected a simple value for field [" + key + "] but found [" + v.tokenName() + "]");
        }
        return JsonReads.text(v).orElseThrow(() -> GatewayException.illegalArgument("Malformed action/metadata line ["
                + lineNumber + "], expected a simple value for field [" + key + "] but found [" + v.tokenName() + "]"));
    }

    /** An item's {@code version}: a number (a fraction is cut, as Elasticsearch reads it) or its string form. */
    private static long version(JsonObject meta, int lineNumber) {
        if (!meta.has("version")) {
            return Versioning.MATCH_ANY;
        }
        JsonValue v = meta.get("version");
        if (v instanceof JsonValue.JsonNumber n) {
            return n.value().longValue();
        }
        String text = text(meta, "version", lineNumber);
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw GatewayException.illegalArgument("For input string: \"" + text + "\"");
        }
    }

    private static OptionalLong longMeta(JsonObject meta, String key, int lineNumber) {
        if (!meta.has(key)) {
            return OptionalLong.empty();
        }
        return JsonReads.integer(meta.get(key)).map(OptionalLong::of).orElseThrow(() ->
                GatewayException.illegalArgument("Malformed action/metadata line [" + lineNumber + "], [" + key
                        + "] must be a number"));
    }
}
