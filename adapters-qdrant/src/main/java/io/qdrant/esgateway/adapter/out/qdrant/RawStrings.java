package io.qdrant.esgateway.adapter.out.qdrant;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.util.Arrays;

/**
 * The content of a JSON string token as the UTF-8 bytes of the answer it stands in, without decoding it to a
 * {@code String}: for a stored source ({@code _src}) that the gateway carries to its own answer as bytes. Qdrant writes
 * a string's characters as UTF-8 and escapes only {@code "}, the backslash and control characters; in a source
 * text that the gateway can carry verbatim the only escape is {@code \"} (the source's own quotes). So the bytes
 * between the quotes, with each {@code \"} made {@code "}, are the string's UTF-8 — and any other escape (or a control
 * byte, or an answer that is not where the parser says) gives {@code null}: the caller decodes the string as usual.
 * The bytes are not checked as UTF-8 here; the caller's verbatim check does that.
 */
final class RawStrings {
    private RawStrings() {
    }

    /**
     * The UTF-8 content of the {@code VALUE_STRING} token the parser stands on, read from {@code answer} (the
     * parser's whole input), or {@code null} when it has an escape other than {@code \"} or cannot be located.
     */
    static byte[] utf8(JsonParser parser, byte[] answer) {
        if (answer == null || parser.currentToken() != JsonToken.VALUE_STRING) {
            return null;
        }
        long offset = parser.currentTokenLocation().getByteOffset();
        if (offset < 0 || offset >= answer.length || answer[(int) offset] != '"') {
            return null;
        }
        return content(answer, (int) offset + 1);
    }

    /** The content of the string whose first content byte is {@code answer[start]} (see the class comment). */
    static byte[] content(byte[] answer, int start) {
        int quotes = 0;
        int i = start;
        while (true) {
            if (i >= answer.length) {
                return null;
            }
            byte c = answer[i];
            if (c == '"') {
                break;
            }
            if (c == '\\') {
                if (i + 1 >= answer.length || answer[i + 1] != '"') {
                    return null;
                }
                quotes++;
                i += 2;
                continue;
            }
            if (c >= 0 && c < 0x20) {
                return null;
            }
            i++;
        }
        if (quotes == 0) {
            return Arrays.copyOfRange(answer, start, i);
        }
        byte[] out = new byte[i - start - quotes];
        int o = 0;
        for (int j = start; j < i; j++) {
            byte c = answer[j];
            if (c == '\\') {
                j++; // the quote after it
                c = '"';
            }
            out[o++] = c;
        }
        return out;
    }
}
