package io.qdrant.esgateway.adapter.in.http;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * JSON text that is already UTF-8 (a verbatim stored source), for {@code JsonGenerator.writeRawValue}: Jackson's
 * byte generator copies {@link #appendUnquotedUTF8} straight into its buffer — no {@code String} to encode. The bytes
 * are not copied and must not change. The quoted forms (never asked for a raw value) go through the decoded text.
 */
final class RawUtf8 implements SerializableString {
    private final byte[] utf8;

    RawUtf8(byte[] utf8) {
        this.utf8 = utf8;
    }

    @Override
    public String getValue() {
        return new String(utf8, StandardCharsets.UTF_8);
    }

    @Override
    public int charLength() {
        return getValue().length();
    }

    @Override
    public byte[] asUnquotedUTF8() {
        return utf8;
    }

    @Override
    public int appendUnquotedUTF8(byte[] buffer, int offset) {
        if (offset + utf8.length > buffer.length) {
            return -1;
        }
        System.arraycopy(utf8, 0, buffer, offset, utf8.length);
        return utf8.length;
    }

    @Override
    public int writeUnquotedUTF8(OutputStream out) throws IOException {
        out.write(utf8);
        return utf8.length;
    }

    @Override
    public int putUnquotedUTF8(ByteBuffer buffer) {
        if (utf8.length > buffer.remaining()) {
            return -1;
        }
        buffer.put(utf8);
        return utf8.length;
    }

    @Override
    public int appendUnquoted(char[] buffer, int offset) {
        return quoted().appendUnquoted(buffer, offset);
    }

    @Override
    public char[] asQuotedChars() {
        return quoted().asQuotedChars();
    }

    @Override
    public byte[] asQuotedUTF8() {
        return quoted().asQuotedUTF8();
    }

    @Override
    public int appendQuotedUTF8(byte[] buffer, int offset) {
        return quoted().appendQuotedUTF8(buffer, offset);
    }

    @Override
    public int appendQuoted(char[] buffer, int offset) {
        return quoted().appendQuoted(buffer, offset);
    }

    @Override
    public int writeQuotedUTF8(OutputStream out) throws IOException {
        return quoted().writeQuotedUTF8(out);
    }

    @Override
    public int putQuotedUTF8(ByteBuffer buffer) throws IOException {
        return quoted().putQuotedUTF8(buffer);
    }

    private SerializedString quoted() {
        return new SerializedString(getValue());
    }

    @Override
    public String toString() {
        return getValue();
    }
}
