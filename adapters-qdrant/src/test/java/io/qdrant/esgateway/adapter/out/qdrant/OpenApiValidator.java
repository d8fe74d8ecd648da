package io.qdrant.esgateway.adapter.out.qdrant;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A minimal OpenAPI 3.0 validator over Qdrant's {@code openapi.json} (1.19.0), written for these tests because no
 * OpenAPI/JSON-Schema validator library is available offline in this build (swagger-parser and networknt's validator
 * are not in the local Maven repository). It covers the keywords the Qdrant spec uses on the request and response
 * bodies: {@code $ref}, {@code type} with OAS 3.0 {@code nullable}, {@code properties}, {@code required},
 * {@code additionalProperties}, {@code items}, {@code anyOf}, {@code oneOf} (exactly one), {@code allOf},
 * {@code enum}, {@code minimum}/{@code maximum}, {@code minItems}/{@code maxItems}, and the {@code uint*}/{@code uuid}
 * formats. Unknown keywords (descriptions, examples, defaults) are ignored.
 */
public final class OpenApiValidator {
    private static final Pattern UUID = Pattern.compile(
            "(?i)(urn:uuid:)?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}");
    public static final OpenApiValidator QDRANT = load("/qdrant/openapi.json");

    private final JsonNode spec;

    private OpenApiValidator(JsonNode spec) {
        this.spec = spec;
    }

    static OpenApiValidator load(String resource) {
        try (InputStream in = OpenApiValidator.class.getResourceAsStream(resource)) {
            return new OpenApiValidator(new ObjectMapper().readTree(in));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The operation of a concrete path: its template and its definition. */
    record Operation(String template, String method, JsonNode definition) {
    }

    Optional<Operation> operation(String method, String path) {
        Iterator<Map.Entry<String, JsonNode>> paths = spec.get("paths").fields();
        while (paths.hasNext()) {
            Map.Entry<String, JsonNode> e = paths.next();
            String regex = e.getKey().replaceAll("\\{[^/]+}", "[^/]+");
            if (path.matches(regex)) {
                JsonNode op = e.getValue().get(method.toLowerCase(java.util.Locale.ROOT));
                if (op != null) {
                    return Optional.of(new Operation(e.getKey(), method, op));
                }
            }
        }
        return Optional.empty();
    }

    /** Problems of a request body for this operation (empty when valid). */
    public List<String> request(String method, String path, JsonNode body) {
        Operation op = operation(method, path).orElseThrow(() -> new AssertionError("no operation " + method + " "
                + path + " in the spec"));
        JsonNode schema = op.definition().path("requestBody").path("content").path("application/json").path("schema");
        List<String> problems = new ArrayList<>();
        if (schema.isMissingNode()) {
            if (body != null) {
                problems.add(method + " " + path + " takes no body");
            }
            return problems;
        }
        validate(schema, body, "$", problems);
        return problems;
    }

    /** Problems of a response body for this operation and status. */
    List<String> response(String method, String path, int status, JsonNode body) {
        Operation op = operation(method, path).orElseThrow();
        JsonNode responses = op.definition().path("responses");
        JsonNode response = responses.has(Integer.toString(status)) ? responses.get(Integer.toString(status))
                : responses.has(status / 100 + "XX") ? responses.get(status / 100 + "XX") : responses.get("default");
        List<String> problems = new ArrayList<>();
        if (response == null) {
            problems.add("status " + status + " is not documented for " + op.template());
            return problems;
        }
        JsonNode schema = response.path("content").path("application/json").path("schema");
        if (!schema.isMissingNode()) {
            validate(schema, body, "$", problems);
        }
        return problems;
    }

    /** Problems of a value against a named component schema ({@code Filter}, {@code PointStruct}, …). */
    public List<String> schema(String name, JsonNode value) {
        List<String> problems = new ArrayList<>();
        validate(spec.path("components").path("schemas").path(name), value, "$", problems);
        return problems;
    }

    private JsonNode resolve(JsonNode schema) {
        while (schema.has("$ref")) {
            String ref = schema.get("$ref").asText();
            JsonNode target = spec;
            for (String part : ref.substring(2).split("/")) {
                target = target.path(part);
            }
            if (target.isMissingNode()) {
                throw new AssertionError("unresolved " + ref);
            }
            schema = target;
        }
        return schema;
    }

    void validate(JsonNode schema, JsonNode value, String at, List<String> problems) {
        schema = resolve(schema);
        if (value == null || value.isNull()) {
            if (value == null || schema.path("nullable").asBoolean(false) || !schema.has("type") && !hasComposite(schema)
                    || anyNullable(schema)) {
                return;
            }
            problems.add(at + ": null is not allowed");
            return;
        }
        if (schema.has("allOf")) {
            for (JsonNode s : schema.get("allOf")) {
                validate(s, value, at, problems);
            }
        }
        if (schema.has("anyOf")) {
            boolean ok = false;
            List<String> first = null;
            for (JsonNode s : schema.get("anyOf")) {
                List<String> p = new ArrayList<>();
                validate(s, value, at, p);
                if (p.isEmpty()) {
                    ok = true;
                    break;
                }
                if (first == null || p.size() < first.size()) {
                    first = p;
                }
            }
            if (!ok) {
                problems.add(at + ": matches none of anyOf " + (first == null ? "" : first));
            }
        }
        if (schema.has("oneOf")) {
            int matched = 0;
            for (JsonNode s : schema.get("oneOf")) {
                List<String> p = new ArrayList<>();
                validate(s, value, at, p);
                if (p.isEmpty()) {
                    matched++;
                }
            }
            if (matched != 1) {
                problems.add(at + ": matches " + matched + " of oneOf, not exactly one");
            }
        }
        if (schema.has("enum")) {
            boolean found = false;
            for (JsonNode e : schema.get("enum")) {
                found |= e.equals(value) || e.isTextual() && value.isTextual() && e.asText().equals(value.asText());
            }
            if (!found) {
                problems.add(at + ": " + value + " is not one of " + schema.get("enum"));
            }
        }
        String type = schema.path("type").asText("");
        if (type.isEmpty() && schema.path("nullable").asBoolean(false) && !hasComposite(schema)
                && !schema.has("properties")) {
            // OAS 3.0's "X or null" idiom, anyOf: [{$ref: X}, {nullable: true}]: this branch admits null only
            problems.add(at + ": only null is allowed here");
            return;
        }
        switch (type) {
            case "object" -> {
                if (!value.isObject()) {
                    problems.add(at + ": expected an object, got " + value.getNodeType());
                    return;
                }
                object(schema, value, at, problems);
            }
            case "array" -> {
                if (!value.isArray()) {
                    problems.add(at + ": expected an array, got " + value.getNodeType());
                    return;
                }
                if (schema.has("minItems") && value.size() < schema.get("minItems").asInt()) {
                    problems.add(at + ": fewer than " + schema.get("minItems") + " items");
                }
                if (schema.has("maxItems") && value.size() > schema.get("maxItems").asInt()) {
                    problems.add(at + ": more than " + schema.get("maxItems") + " items");
                }
                if (schema.has("items")) {
                    for (int i = 0; i < value.size(); i++) {
                        validate(schema.get("items"), value.get(i), at + "[" + i + "]", problems);
                    }
                }
            }
            case "string" -> {
                if (!value.isTextual()) {
                    problems.add(at + ": expected a string, got " + value.getNodeType());
                } else if (schema.path("format").asText("").equals("uuid") && !UUID.matcher(value.asText()).matches()) {
                    problems.add(at + ": not a uuid: " + value);
                }
            }
            case "integer" -> {
                if (!value.isIntegralNumber()) {
                    problems.add(at + ": expected an integer, got " + value);
                } else {
                    number(schema, value, at, problems);
                }
            }
            case "number" -> {
                if (!value.isNumber()) {
                    problems.add(at + ": expected a number, got " + value);
                } else {
                    number(schema, value, at, problems);
                }
            }
            case "boolean" -> {
                if (!value.isBoolean()) {
                    problems.add(at + ": expected a boolean, got " + value);
                }
            }
            default -> {
                if (schema.has("properties") && value.isObject()) {
                    object(schema, value, at, problems);
                }
            }
        }
    }

    private boolean hasComposite(JsonNode schema) {
        return schema.has("anyOf") || schema.has("oneOf") || schema.has("allOf") || schema.has("enum");
    }

    private boolean anyNullable(JsonNode schema) {
        for (String k : List.of("anyOf", "oneOf")) {
            if (schema.has(k)) {
                for (JsonNode s : schema.get(k)) {
                    JsonNode r = resolve(s);
                    if (r.path("nullable").asBoolean(false) || anyNullable(r)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private void object(JsonNode schema, JsonNode value, String at, List<String> problems) {
        JsonNode properties = schema.path("properties");
        for (JsonNode r : schema.path("required")) {
            if (!value.has(r.asText())) {
                problems.add(at + ": missing required [" + r.asText() + "]");
            }
        }
        JsonNode additional = schema.get("additionalProperties");
        Iterator<Map.Entry<String, JsonNode>> fields = value.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            if (properties.has(f.getKey())) {
                validate(properties.get(f.getKey()), f.getValue(), at + "." + f.getKey(), problems);
            } else if (additional != null) {
                if (additional.isBoolean()) {
                    if (!additional.asBoolean()) {
                        problems.add(at + ": unknown property [" + f.getKey() + "]");
                    }
                } else {
                    validate(additional, f.getValue(), at + "." + f.getKey(), problems);
                }
            }
        }
    }

    private static void number(JsonNode schema, JsonNode value, String at, List<String> problems) {
        double v = value.asDouble();
        if (schema.has("minimum") && v < schema.get("minimum").asDouble()) {
            problems.add(at + ": " + value + " is below the minimum " + schema.get("minimum"));
        }
        if (schema.has("maximum") && v > schema.get("maximum").asDouble()) {
            problems.add(at + ": " + value + " is above the maximum " + schema.get("maximum"));
        }
        if (schema.path("format").asText("").startsWith("uint") && v < 0) {
            problems.add(at + ": " + value + " is not unsigned");
        }
    }
}
