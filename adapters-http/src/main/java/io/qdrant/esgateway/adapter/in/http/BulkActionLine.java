package io.qdrant.esgateway.adapter.in.http;

import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.nio.charset.StandardCharsets;

/**
 * The common {@code _bulk} action line read without a JSON parser: {@code {"<action>":{…}}} with {@code index},
 * {@code create}, {@code update} or {@code delete}, and as metadata at most {@code "_index"} and {@code "_id"}, once
 * each, with printable ASCII string values without escapes, and no white space anywhere (what clients write, e.g.
 * {@code {"index":{"_index":"bench","_id":"d1"}}}). For such a line the object equals what {@link JsonCodec#parse}
 * builds (the same members in the same order); for any other line the answer is {@code null} and the caller parses
 * it, so every error and every other shape is the parser's. A bulk of 1,000 documents spent ~2 % of its request
 * thread creating a parser per action line (docs/benchmarks/README.md, "Write path").
 */
final class BulkActionLine {
    private static final byte[][] ACTIONS = {bytes("index"), bytes("create"), bytes("update"), bytes("delete")};
    private static final String[] ACTION_NAMES = {"index", "create", "update", "delete"};
    private static final byte[] INDEX = bytes("_index");
    private static final byte[] ID = bytes("_id");

    private final byte[] b;
    private final int end;
    private int pos;

    private BulkActionLine(byte[] body, int start, int length) {
        this.b = body;
        this.pos = start;
        this.end = start + length;
    }

    /** The action line of {@code length} bytes of {@code body} from {@code start}, or null if it is not this shape. */
    static JsonObject simple(byte[] body, int start, int length) {
        return new BulkActionLine(body, start, length).read();
    }

    private JsonObject read() {
        if (!take('{') || !take('"')) {
            return null;
        }
        int nameStart = pos;
        if (!skipString()) {
            return null;
        }
        String action = action(nameStart, pos - 1);
        if (action == null || !take(':') || !take('{')) {
            return null;
        }
        JsonObjectBuilder meta = JsonObjectBuilder.object();
        boolean index = false;
        boolean id = false;
        if (!take('}')) {
            do {
                if (!take('"')) {
                    return null;
                }
                int keyStart = pos;
                if (!skipString()) {
                    return null;
                }
                int keyEnd = pos - 1;
                String key;
                if (!index && same(keyStart, keyEnd, INDEX)) {
                    index = true;
                    key = "_index";
                } else if (!id && same(keyStart, keyEnd, ID)) {
                    id = true;
                    key = "_id";
                } else {
                    return null;
                }
                if (!take(':') || !take('"')) {
                    return null;
                }
                int valueStart = pos;
                if (!skipString()) {
                    return null;
                }
                meta.put(key, new String(b, valueStart, pos - 1 - valueStart, StandardCharsets.US_ASCII));
            } while (take(','));
            if (!take('}')) {
                return null;
            }
        }
        if (!take('}') || pos != end) {
            return null;
        }
        return JsonObjectBuilder.object().put(action, meta.build()).build();
    }

    private boolean take(char c) {
        if (pos < end && b[pos] == c) {
            pos++;
            return true;
        }
        return false;
    }

    /** Past a string's closing quote; false at an escape, a control or non-ASCII byte, or the end of the line. */
    private boolean skipString() {
        while (pos < end) {
            byte c = b[pos++];
            if (c == '"') {
                return true;
            }
            if (c < 0x20 || c == '\\' || c == 0x7f) {
                return false;
            }
        }
        return false;
    }

    private String action(int from, int to) {
        for (int i = 0; i < ACTIONS.length; i++) {
            if (same(from, to, ACTIONS[i])) {
                return ACTION_NAMES[i];
            }
        }
        return null;
    }

    private boolean same(int from, int to, byte[] expected) {
        if (to - from != expected.length) {
            return false;
        }
        for (int i = 0; i < expected.length; i++) {
            if (b[from + i] != expected[i]) {
                return false;
            }
        }
        return true;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
