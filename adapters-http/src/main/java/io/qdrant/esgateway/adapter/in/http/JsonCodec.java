package io.qdrant.esgateway.adapter.in.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.base.ParserBase;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.CompactMembers;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonBool;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNull;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import io.qdrant.esgateway.domain.json.JsonValue.Position;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Jackson on the wire, the neutral {@link JsonValue} tree inside. Duplicate keys are errors, as in Elasticsearch. */
final class JsonCodec {
    /** Elasticsearch refuses documents nested deeper than this (index.mapping.depth.limit is 20; the parser 1000). */
    static final int MAX_DEPTH = 1000;
    /**
     * The most values (objects, arrays, strings, numbers, literals) one parsed JSON body or NDJSON line may hold: each
     * costs tens of bytes of heap for a few bytes of body, so a body of millions of tiny values is refused at once
     * (400) rather than parsed into a tree many times its size.
     */
    static final int MAX_VALUES = 1_000_000;
    /** The longest string value (in characters) and the longest number (in digits) a body may hold. */
    static final int MAX_STRING_LENGTH = 20_000_000;
    static final int MAX_NUMBER_LENGTH = 1000;

    private final JsonFactory factory;

    JsonCodec() {
        factory = JsonFactory.builder()
                .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH)
                        .maxStringLength(MAX_STRING_LENGTH).maxNumberLength(MAX_NUMBER_LENGTH).build())
                // buffers shared between requests: the default pool keeps them per thread, and each request runs on
                // a new virtual thread (fresh buffers for every parse and every write)
                .recyclerPool(JsonRecyclerPools.newConcurrentDequePool())
                .build();
    }

    /** Parses one JSON value; anything else (trailing content, not JSON) is a 400 naming the position. */
    JsonValue parse(byte[] body) {
        return parse(body, 0, body.length);
    }

    /** As {@link #parse(byte[])}, for the {@code length} bytes of {@code body} from {@code offset}. */
    JsonValue parse(byte[] body, int offset, int length) {
        try (JsonParser parser = factory.createParser(body, offset, length)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw notJson("request body is required", null);
            }
            JsonValue value = read(parser, first, new Scratch());
            JsonToken trailing = parser.nextToken();
            if (trailing != null) {
                throw notJson("Unexpected " + trailing + " after the end of the JSON body", parser.currentLocation());
            }
            return value;
        } catch (JsonProcessingException e) {
            throw notJson(e.getOriginalMessage(), e.getLocation());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static GatewayException notJson(String message, JsonLocation at) {
        String where = at == null ? "" : "[" + at.getLineNr() + ":" + at.getColumnNr() + "] ";
        return new GatewayException(ErrorKind.NOT_JSON, where + firstLine(message));
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /**
     * One parse's state: the values it may still read, and a stack of key positions shared by all its objects (each
     * object copies its own keys' positions out once, in one exact array).
     */
    private static final class Scratch {
        int budget = MAX_VALUES;
        long[] keys = new long[8];
        int top;

        void push(long at) {
            if (top == keys.length) {
                keys = java.util.Arrays.copyOf(keys, top * 2);
            }
            keys[top++] = at;
        }

        long[] pop(int from) {
            long[] out = top == from ? NO_KEYS : java.util.Arrays.copyOfRange(keys, from, top);
            top = from;
            return out;
        }
    }

    private static final long[] NO_KEYS = new long[0];

    /**
     * Where the parser's current token starts, packed as {@link Position} does: Jackson's token location, read
     * without allocating one for a value or a bracket (its token column counts one past the location's).
     */
    private static long at(JsonParser p) {
        if (p instanceof ParserBase base && p.currentToken() != JsonToken.FIELD_NAME) {
            return Position.of(base.getTokenLineNr(), base.getTokenColumnNr() - 1);
        }
        JsonLocation location = p.currentTokenLocation();
        return Position.of(location.getLineNr(), location.getColumnNr());
    }

    private static JsonValue read(JsonParser p, JsonToken token, Scratch scratch) throws IOException {
        if (--scratch.budget < 0) {
            throw notJson("the body holds more than " + MAX_VALUES + " values", p.currentLocation());
        }
        long at = at(p);
        return switch (token) {
            case START_OBJECT -> {
                // a builder hands its members to the object without a copy (duplicates are refused by the parser)
                JsonObjectBuilder members = JsonObjectBuilder.object();
                int from = scratch.top;
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    scratch.push(at(p));
                    String name = p.currentName();
                    members.put(name, read(p, p.nextToken(), scratch));
                }
                long end = at(p);
                yield members.build(at, end, scratch.pop(from));
            }
            case START_ARRAY -> {
                List<JsonValue> elements = new ArrayList<>();
                JsonToken t;
                while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                    elements.add(read(p, t, scratch));
                }
                yield new JsonArray(elements, at, at(p));
            }
            case VALUE_STRING -> new JsonString(p.getText(), at);
            case VALUE_NUMBER_INT -> new JsonNumber(p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                    ? p.getBigIntegerValue() : (Number) p.getLongValue(), at);
            case VALUE_NUMBER_FLOAT -> new JsonNumber(p.getDoubleValue(), at);
            case VALUE_TRUE -> new JsonBool(true, at);
            case VALUE_FALSE -> new JsonBool(false, at);
            case VALUE_NULL -> JsonNull.INSTANCE;
            default -> throw notJson("Unexpected token " + token, p.currentLocation());
        };
    }

    byte[] write(JsonValue value, boolean pretty) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = factory.createGenerator(out)) {
            if (pretty) {
                g.useDefaultPrettyPrinter();
            }
            write(g, value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (pretty) {
            out.write('\n');
        }
        return out.toByteArray();
    }

    /** What writes a body straight to a generator (a response too large to build as a tree first). */
    @FunctionalInterface
    interface Streamed {
        void writeTo(JsonGenerator generator) throws IOException;
    }

    /**
     * The compact bytes {@code body} writes, exactly as {@link #write(JsonValue, boolean)} would write its tree;
     * {@code expectedBytes} sizes the buffer.
     */
    byte[] write(Streamed body, int expectedBytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(256, expectedBytes));
        try (JsonGenerator g = factory.createGenerator(out)) {
            body.writeTo(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static void write(JsonGenerator g, JsonValue value) throws IOException {
        switch (value) {
            case JsonObject o -> {
                if (o.members() instanceof CompactMembers compact && g.getPrettyPrinter() == null) {
                    // a stored source whose text is exactly what the loop below would write: carried as it is
                    if (compact.verbatimUtf8() != null) {
                        g.writeRawValue(new RawUtf8(compact.verbatimUtf8())); // the bytes as they are: no encode
                    } else {
                        g.writeRawValue(compact.verbatimText());
                    }
                    return;
                }
                g.writeStartObject();
                for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
                    g.writeFieldName(e.getKey());
                    write(g, e.getValue());
                }
                g.writeEndObject();
            }
            case JsonArray a -> {
                g.writeStartArray();
                for (JsonValue v : a.elements()) {
                    write(g, v);
                }
                g.writeEndArray();
            }
            case JsonString s -> g.writeString(s.value());
            case JsonNumber n -> {
                switch (n.value()) {
                    case Long l -> g.writeNumber(l);
                    case Integer i -> g.writeNumber(i);
                    case Double d -> g.writeNumber(d);
                    case Float f -> g.writeNumber(f);
                    case java.math.BigInteger b -> g.writeNumber(b);
                    case java.math.BigDecimal d -> g.writeNumber(d);
                    default -> g.writeNumber(n.value().toString());
                }
            }
            case JsonBool b -> g.writeBoolean(b.value());
            case JsonNull ignored -> g.writeNull();
        }
    }
}
