package io.qdrant.esgateway.adapter.out.qdrant.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.MissingNode;
import io.qdrant.esgateway.domain.aggregation.ValuesDoc;
import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.search.GatewaySort;
import io.qdrant.esgateway.domain.sort.SortSpec;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;

/**
 * The sort candidates' values read without the document parser are the parser's values, on many random projected
 * sources (in-range and out-of-range integers, decimals, strings, arrays, nulls, objects, booleans, unknown keys), and
 * a sort key built from them is the key the parser's values give.
 */
class PlainSortValuesTest {
    private static final Mappings MAPPINGS = Mappings.parse(Json.parse("""
            {"properties":{"i":{"type":"integer"},"l":{"type":"long"},"s":{"type":"short"},"b":{"type":"byte"},
             "d":{"type":"double"},"k":{"type":"keyword"},"o":{"properties":{"n":{"type":"integer"}}},
             "t":{"type":"text","fields":{"raw":{"type":"keyword"}}}}}"""));

    private static JsonValue randomValue(Random r, int depth) {
        return switch (r.nextInt(depth > 0 ? 12 : 16)) {
            case 0, 1, 2, 3 -> JsonValue.number((long) r.nextInt(400) - 200);
            case 4 -> JsonValue.number(switch (r.nextInt(6)) {
                case 0 -> (long) Integer.MAX_VALUE + r.nextInt(3) - 1;
                case 1 -> (long) Integer.MIN_VALUE + r.nextInt(3) - 1;
                case 2 -> (long) Short.MAX_VALUE + r.nextInt(3) - 1;
                case 3 -> (long) Byte.MIN_VALUE + r.nextInt(3) - 1;
                case 4 -> r.nextLong();
                default -> Long.MAX_VALUE;
            });
            case 5 -> new JsonValue.JsonNumber(switch (r.nextInt(4)) {
                case 0 -> 1.5;
                case 1 -> 3.0;
                case 2 -> -0.0;
                default -> 1e300;
            });
            case 6 -> new JsonValue.JsonNumber(r.nextBoolean() ? new BigInteger("123456789012345678901234567890")
                    : BigInteger.valueOf(7));
            case 7 -> new JsonValue.JsonNumber(new BigDecimal("2.50"));
            case 8 -> JsonValue.string(List.of("12", "1.5", "", "abc", "-0", "1e3", " 4").get(r.nextInt(7)));
            case 9 -> JsonValue.bool(r.nextBoolean());
            case 10 -> JsonValue.JsonNull.INSTANCE;
            case 11 -> new JsonValue.JsonNumber(Integer.valueOf(5));
            case 12, 13 -> {
                List<JsonValue> elements = new ArrayList<>();
                for (int i = r.nextInt(3); i > 0; i--) {
                    elements.add(randomValue(r, depth + 1));
                }
                yield new JsonValue.JsonArray(elements);
            }
            default -> new JsonObject(Map.of("n", randomValue(r, depth + 1)));
        };
    }

    /** A source with some of {@code keys}, each with a plain value most of the time. */
    private static JsonObject randomSource(Random r, List<String> keys) {
        Map<String, JsonValue> members = new LinkedHashMap<>();
        for (String key : keys) {
            if (r.nextInt(5) > 0) {
                members.put(key, r.nextInt(3) > 0 ? JsonValue.number((long) r.nextInt(100)) : randomValue(r, 0));
            }
        }
        if (r.nextInt(10) == 0) {
            members.put(List.of("d", "k", "x", "o", "o.n", "i.x", "_id").get(r.nextInt(7)), randomValue(r, 0));
        }
        return new JsonObject(members);
    }

    @Test
    void plainValuesAreTheParsersValues() {
        List<List<String>> fieldSets = List.of(List.of("i"), List.of("i", "l"), List.of("l", "s", "b"),
                List.of("b", "i", "s", "l"));
        Random random = new Random(31);
        int plain = 0;
        int parsedOnly = 0;
        for (List<String> fields : fieldSets) {
            PlainSortValues reader = PlainSortValues.of(MAPPINGS, new LinkedHashSet<>(fields));
            assertThat(reader).as("%s", fields).isNotNull();
            for (int n = 0; n < 5000; n++) {
                JsonObject source = randomSource(random, fields);
                List<IndexedValue> fast = reader.values(source);
                List<IndexedValue> parsed;
                try {
                    parsed = DocumentParser.parse(MAPPINGS, source, "d").values();
                } catch (GatewayException e) {
                    assertThat(fast).as(Json.write(source)).isNull();
                    continue;
                }
                if (fast != null) {
                    plain++;
                    assertThat(fast).as(Json.write(source)).isEqualTo(parsed);
                } else {
                    parsedOnly++;
                }
            }
        }
        assertThat(plain).isGreaterThan(5000);
        assertThat(parsedOnly).isGreaterThan(2000);
    }

    @Test
    void onlyTopLevelIntegralNumberFieldsAreRead() {
        assertThat(PlainSortValues.of(MAPPINGS, Set.of("i", "b"))).isNotNull();
        for (String field : List.of("d", "k", "t", "o", "o.n", "x")) {
            assertThat(PlainSortValues.of(MAPPINGS, Set.of("i", field))).as(field).isNull();
        }
        assertThat(PlainSortValues.of(MAPPINGS, Set.of())).isNull();
    }

    /** Through {@link SortPayload}: the key of each random candidate is the key of the parser's values. */
    @Test
    void sortKeysAreTheParsersKeys() {
        List<SortSpec> specs = List.of(
                new SortSpec.Field("i", SortSpec.Order.DESC, new SortSpec.Missing.Last(), Optional.empty(),
                        Optional.empty(), Optional.empty()),
                new SortSpec.Field("l", SortSpec.Order.ASC, new SortSpec.Missing.First(),
                        Optional.of(SortSpec.Mode.MAX), Optional.empty(), Optional.empty()),
                new SortSpec.Field("s", SortSpec.Order.ASC, new SortSpec.Missing.Last(),
                        Optional.of(SortSpec.Mode.AVG), Optional.empty(), Optional.empty()));
        GatewaySort sort = GatewaySort.of("idx", specs, MAPPINGS, System::currentTimeMillis);
        SortPayload payload = new SortPayload(MAPPINGS, sort);
        Random random = new Random(37);
        for (int n = 0; n < 3000; n++) {
            JsonObject source = randomSource(random, List.of("i", "l", "s"));
            List<IndexedValue> parsed;
            try {
                parsed = DocumentParser.parse(MAPPINGS, source, "d" + n).values();
            } catch (GatewayException e) {
                continue;
            }
            String point = "00000000-0000-0000-0000-" + String.format("%012d", n);
            SortRecord record = new SortRecord(point, MissingNode.getInstance(), "d" + n, n, source);
            GatewaySort.Key key = payload.key(record, 1.0f);
            GatewaySort.Key expected = sort.key(new ValuesDoc("d" + n, 1.0f, parsed, i -> false),
                    n);
            assertThat(key.values()).as(Json.write(source)).containsExactly(expected.values());
            assertThat(key.position()).isEqualTo(expected.position());
        }
    }
}
