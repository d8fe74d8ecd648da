package io.qdrant.esgateway.adapter.in.http;

import io.qdrant.esgateway.application.port.in.ResponseCaching;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A search or count as the response cache keys it: its kind, its body and the parameters that change its answer. The
 * text (the kind, the body written compactly, the parameters sorted by name) is written only when the cache asks for
 * it. The hint, and whether the request mentions {@code now} or may refer to a stored script, come from one walk over
 * the parsed body, with no text written, and say what the text would say ({@link
 * ResponseCaching.Request#textDependsOnNow}, {@link ResponseCaching.Request#textDependsOnStoredScripts}): the text
 * escapes no letter, and puts punctuation between any two names, strings or parameters.
 */
final class CacheRequest implements ResponseCaching.Request {
    private final String kind;
    private final Optional<JsonValue> body;
    private final Map<String, String> params;
    private final JsonCodec codec;
    private final long hint;
    private boolean now;
    private boolean script;
    private boolean id;
    private String text;

    CacheRequest(String kind, Optional<JsonValue> body, Map<String, String> params, JsonCodec codec) {
        this.kind = kind;
        this.body = body;
        this.params = params;
        this.codec = codec;
        long h = mix(0x9E3779B97F4A7C15L, name(kind));
        if (body.isPresent()) {
            h = walk(body.get(), h);
        }
        long sum = 0; // the parameters in any order: the text sorts them
        for (Map.Entry<String, String> p : params.entrySet()) {
            sum += mix(param(p.getKey()), param(p.getValue()));
        }
        this.hint = mix(h, sum);
    }

    @Override
    public String text() {
        String made = text;
        if (made == null) {
            StringBuilder out = new StringBuilder(kind).append('\u0000');
            body.ifPresent(b -> out.append(new String(codec.write(b, false), StandardCharsets.UTF_8)));
            out.append('\u0000').append(new TreeMap<>(params));
            made = out.toString();
            text = made;
        }
        return made;
    }

    @Override
    public long hint() {
        return hint;
    }

    @Override
    public boolean dependsOnNow() {
        return now;
    }

    @Override
    public boolean dependsOnStoredScripts() {
        return id && script;
    }

    private long walk(JsonValue value, long h) {
        return switch (value) {
            case JsonValue.JsonObject o -> {
                long x = mix(h, '{');
                for (Map.Entry<String, JsonValue> member : o.members().entrySet()) {
                    String name = member.getKey();
                    // the text's "id": closes a member's name: one named id, or one ending in a quote and id
                    id |= name.equals("id") || name.endsWith("\"id");
                    x = walk(member.getValue(), mix(x, name(name)));
                }
                yield mix(x, '}');
            }
            case JsonValue.JsonArray a -> {
                long x = mix(h, '[');
                for (JsonValue element : a.elements()) {
                    x = walk(element, x);
                }
                yield mix(x, ']');
            }
            case JsonValue.JsonString s -> mix(h, name(s.value()) ^ 's');
            case JsonValue.JsonNumber n -> mix(h, n.value().hashCode() ^ ((long) n.value().getClass().hashCode() << 32));
            case JsonValue.JsonBool b -> mix(h, b.value() ? 't' : 'f');
            case JsonValue.JsonNull ignored -> mix(h, 'n');
        };
    }

    /** A name or string of the request: its hash, noting what it mentions. */
    private long name(String s) {
        now |= ResponseCaching.Request.textDependsOnNow(s);
        script |= s.contains("script");
        return s.hashCode();
    }

    /** A parameter's name or value: as a name, and an {@code "id":} in it counts as an id member. */
    private long param(String s) {
        id |= s.contains("\"id\":");
        return name(s);
    }

    private static long mix(long h, long v) {
        long x = (h ^ v) * 0x9E3779B97F4A7C15L;
        return x ^ (x >>> 31);
    }
}
