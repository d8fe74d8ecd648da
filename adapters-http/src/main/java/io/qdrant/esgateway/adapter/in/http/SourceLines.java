package io.qdrant.esgateway.adapter.in.http;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinTask;

/**
 * The source lines of a {@code _bulk} body parsed to JSON trees: a large body's in two halves, the second on the common
 * fork-join pool while the request thread parses the first. Each line's result is what {@link JsonCodec#parse} gives
 * for it alone: its tree, or the {@link GatewayException} it throws (handed back, not thrown: a bad source fails only
 * its item). Anything else a parse throws is thrown here, the first in line order.
 */
final class SourceLines {
    /** Fewer lines are parsed on the request thread alone: handing half of them over costs more than it saves. */
    static final int SPLIT_AT = 128;
    private static final boolean SEVERAL_CORES = Runtime.getRuntime().availableProcessors() > 1;

    private SourceLines() {
    }

    /** The bytes of one line in the body. */
    record Range(int offset, int length) {
    }

    /** One line parsed: its tree, or why it is not JSON. */
    sealed interface Parsed {
        record Tree(JsonValue value) implements Parsed {
        }

        record Refused(GatewayException error) implements Parsed {
        }
    }

    /** Each range of {@code body} parsed, in order. */
    static List<Parsed> parse(JsonCodec codec, byte[] body, List<Range> ranges) {
        if (ranges.size() < SPLIT_AT || !SEVERAL_CORES) {
            return rethrow(parseAll(codec, body, ranges));
        }
        int half = ranges.size() / 2;
        ForkJoinTask<List<Object>> second = ForkJoinTask.adapt(
                () -> parseAll(codec, body, ranges.subList(half, ranges.size())));
        second.fork();
        List<Object> out = parseAll(codec, body, ranges.subList(0, half));
        out.addAll(second.tryUnfork() ? second.invoke() : second.join());
        return rethrow(out);
    }

    /** Trees and {@link GatewayException}s, and any other exception (a bug) as it was thrown, handed back. */
    private static List<Object> parseAll(JsonCodec codec, byte[] body, List<Range> ranges) {
        List<Object> out = new ArrayList<>(ranges.size());
        for (Range range : ranges) {
            try {
                out.add(new Parsed.Tree(codec.parse(body, range.offset(), range.length())));
            } catch (GatewayException e) {
                out.add(new Parsed.Refused(e));
            } catch (RuntimeException e) {
                out.add(e);
            }
        }
        return out;
    }

    /** The results, once no line failed with anything but a {@link GatewayException} (else the first failure). */
    private static List<Parsed> rethrow(List<Object> results) {
        List<Parsed> parsed = new ArrayList<>(results.size());
        for (Object result : results) {
            if (result instanceof RuntimeException e) {
                throw e;
            }
            parsed.add((Parsed) result);
        }
        return parsed;
    }
}
