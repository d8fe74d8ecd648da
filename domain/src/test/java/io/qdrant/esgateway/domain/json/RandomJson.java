package io.qdrant.esgateway.domain.json;

import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random JSON trees with the values documents hold, some needing escapes or non-canonical numbers: for tests that
 * compare two ways of parsing or writing the same document (the domain's and the HTTP adapter's).
 */
public final class RandomJson {
    /** Strings for keys and values, lone surrogates included (the domain's writer must handle them). */
    public static final List<String> ANY_STRINGS = List.of("", "a", "Dune", "é", "😀", "中文", "a\"b", "back\\slash",
            "line\nbreak", "tab\t", "\u0001", "\u007f", "\b\f", "a/b", "\u2028", "\ud800", "x\udc00", "\ud83d\ude00ok");

    private final List<String> strings;

    /** Draws keys (now and then) and string values from {@code strings}. */
    public RandomJson(List<String> strings) {
        this.strings = List.copyOf(strings);
    }

    public JsonObject object(Random r, int depth) {
        Map<String, JsonValue> m = new LinkedHashMap<>();
        int n = r.nextInt(depth == 0 ? 8 : 4);
        for (int i = 0; i < n; i++) {
            String key = r.nextInt(10) == 0 ? pick(r) : "k" + r.nextInt(20);
            m.put(key, value(r, depth + 1));
        }
        return new JsonObject(m);
    }

    public JsonValue value(Random r, int depth) {
        int kind = r.nextInt(depth > 3 ? 8 : 10);
        return switch (kind) {
            case 0 -> JsonValue.string(pick(r));
            case 1 -> JsonValue.string("w" + r.nextInt(1000));
            case 2 -> JsonValue.number(r.nextInt(2000) - 1000);
            case 3 -> JsonValue.number(r.nextLong());
            case 4 -> new JsonValue.JsonNumber(switch (r.nextInt(6)) {
                case 0 -> r.nextDouble() * 1000;
                case 1 -> (double) r.nextInt(100);
                case 2 -> 1e21 * r.nextDouble();
                case 3 -> -0.0;
                case 4 -> r.nextFloat();
                default -> 1e-7;
            });
            case 5 -> new JsonValue.JsonNumber(switch (r.nextInt(3)) {
                case 0 -> new BigInteger("123456789012345678901234567890").negate();
                case 1 -> new BigDecimal("1.50");
                default -> new BigDecimal("1E+400");
            });
            case 6 -> JsonValue.bool(r.nextBoolean());
            case 7 -> JsonValue.JsonNull.INSTANCE;
            case 8 -> object(r, depth);
            default -> {
                List<JsonValue> a = new ArrayList<>();
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    a.add(value(r, depth + 1));
                }
                yield new JsonValue.JsonArray(a);
            }
        };
    }

    private String pick(Random r) {
        return strings.get(r.nextInt(strings.size()));
    }
}
