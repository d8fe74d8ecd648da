package io.qdrant.esgateway.domain.json;

import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;

/** JSON bodies written compactly in tests: single quotes stand for double quotes. */
public final class JsonFixtures {
    private JsonFixtures() {
    }

    /** Parses {@code text} after turning every {@code '} into {@code "}: {@code json("{'a':1}")}. */
    public static JsonValue json(String text) {
        return Json.parse(text.replace('\'', '"'));
    }

    public static JsonObject object(String text) {
        return (JsonObject) json(text);
    }

    /** The compact text of {@code value} with {@code "} shown as {@code '}, to compare with a fixture literal. */
    public static String compact(JsonValue value) {
        return Json.write(value).replace('"', '\'');
    }
}
