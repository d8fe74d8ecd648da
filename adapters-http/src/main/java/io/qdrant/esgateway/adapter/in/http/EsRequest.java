package io.qdrant.esgateway.adapter.in.http;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.Map;
import java.util.Optional;

/**
 * One request as the endpoints see it: method, decoded path parameters, URL parameters (first value of each) and the
 * body, parsed on first use. URL parameters were already checked against the route's list.
 */
final class EsRequest {
    private final String method;
    private final String path;
    private final Map<String, String> pathParams;
    private final Map<String, String> params;
    private final byte[] body;
    private final JsonCodec codec;
    private JsonValue parsed;
    /** The {@code host:port} the request arrived on (what {@code _nodes} reports as the HTTP publish address). */
    private String localAddress = "127.0.0.1:9200";

    EsRequest(String method, String path, Map<String, String> pathParams, Map<String, String> params, byte[] body,
              JsonCodec codec) {
        this.method = method;
        this.path = path;
        this.pathParams = pathParams;
        this.params = params;
        this.body = body;
        this.codec = codec;
    }

    EsRequest withLocalAddress(String address) {
        this.localAddress = address;
        return this;
    }

    String localAddress() {
        return localAddress;
    }

    String method() {
        return method;
    }

    String path() {
        return path;
    }

    String pathParam(String name) {
        String value = pathParams.get(name);
        if (value == null) {
            throw new IllegalStateException("route has no path parameter {" + name + "}");
        }
        return value;
    }

    Optional<String> optionalPathParam(String name) {
        return Optional.ofNullable(pathParams.get(name));
    }

    Optional<String> param(String name) {
        return Optional.ofNullable(params.get(name));
    }

    /** Elasticsearch's boolean URL parameter: absent → default, {@code ""} or {@code true} → true, {@code false}. */
    boolean flag(String name, boolean defaultValue) {
        String value = params.get(name);
        if (value == null) {
            return defaultValue;
        }
        return switch (value) {
            case "", "true" -> true;
            case "false" -> false;
            default -> throw GatewayException.illegalArgument("Failed to parse value [" + value
                    + "] as only [true] or [false] are allowed.");
        };
    }

    /** The body as received (for NDJSON endpoints, which read it line by line). */
    byte[] rawBody() {
        return body;
    }

    boolean hasBody() {
        return body.length > 0;
    }

    /** The parsed body, or empty when the request has none. */
    Optional<JsonValue> body() {
        if (!hasBody()) {
            return Optional.empty();
        }
        if (parsed == null) {
            parsed = codec.parse(body);
        }
        return Optional.of(parsed);
    }

    /** The parsed body; a 400 naming the endpoint if there is none. */
    JsonValue requiredBody() {
        return body().orElseThrow(() -> GatewayException.parse("request body is required"));
    }
}
