package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.document.ParsedDocument;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ForkJoinTask;

/**
 * The sources of a large batch parsed against the index's mapping ahead of planning, in two halves (the second on the
 * common fork-join pool), so that a bulk's {@link DocumentParser} work uses both cores. {@link DocumentParser#parse} is
 * a function of the mapping, the source and the id, so a result computed ahead is used only where planning would
 * parse exactly the same: the same source object, the same id and the same mapping object; once a document of the
 * batch added fields (a new mapping), the rest are parsed in order as before. A failure computed ahead is thrown
 * where planning would have thrown it.
 */
final class ParsedAhead {
    /** Fewer documents are parsed in order only: handing half of them over costs more than it saves. */
    static final int AHEAD_AT = 128;
    private static final boolean SEVERAL_CORES = Runtime.getRuntime().availableProcessors() > 1;
    static final ParsedAhead NONE = new ParsedAhead(null, Map.of());

    /** One document to parse: where its source came from in the batch, its id and its source. */
    record Source(int item, String id, JsonObject source) {
    }

    /** The parse of one source: a result or the failure it threw. */
    private record Outcome(Source of, ParsedDocument parsed, RuntimeException failure) {
    }

    private final Mappings mappings;
    private final Map<Integer, Outcome> outcomes;

    private ParsedAhead(Mappings mappings, Map<Integer, Outcome> outcomes) {
        this.mappings = mappings;
        this.outcomes = outcomes;
    }

    /** Parses {@code sources} against {@code mappings}; nothing ahead for fewer than {@link #AHEAD_AT}. */
    static ParsedAhead parse(Mappings mappings, List<Source> sources) {
        if (sources.size() < AHEAD_AT || !SEVERAL_CORES) {
            return NONE;
        }
        int half = sources.size() / 2;
        ForkJoinTask<Map<Integer, Outcome>> second = ForkJoinTask.adapt(
                () -> parseAll(mappings, sources.subList(half, sources.size())));
        second.fork();
        Map<Integer, Outcome> outcomes = parseAll(mappings, sources.subList(0, half));
        outcomes.putAll(second.tryUnfork() ? second.invoke() : second.join());
        return new ParsedAhead(mappings, outcomes);
    }

    private static Map<Integer, Outcome> parseAll(Mappings mappings, List<Source> sources) {
        Map<Integer, Outcome> out = new HashMap<>(sources.size() * 2);
        for (Source s : sources) {
            try {
                out.put(s.item(), new Outcome(s, DocumentParser.parse(mappings, s.source(), s.id()), null));
            } catch (RuntimeException e) {
                out.put(s.item(), new Outcome(s, null, e));
            }
        }
        return out;
    }

    /**
     * What {@code DocumentParser.parse(current, source, id)} gives for item {@code item}: computed ahead when it was
     * for exactly these arguments, parsed now otherwise.
     */
    ParsedDocument parse(int item, Mappings current, JsonObject source, String id) {
        Outcome ahead = current == mappings ? outcomes.get(item) : null;
        if (ahead == null || ahead.of().source() != source || !ahead.of().id().equals(id)) {
            return DocumentParser.parse(current, source, id);
        }
        if (ahead.failure() != null) {
            throw ahead.failure();
        }
        return ahead.parsed();
    }
}
