package io.qdrant.esgateway.domain.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.aggregation.ValuesDoc;
import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.sort.SortParser;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GatewaySortTest {
    private static final Mappings MAPPINGS = Mappings.parse(Json.parse("""
            {"properties":{"k":{"type":"keyword"},"l":{"type":"long"},"d":{"type":"double"},"t":{"type":"date"},
             "x":{"type":"text"}}}"""));

    private static List<String> order(String sort, String... sources) {
        GatewaySort s = GatewaySort.of("idx", SortParser.parse(Json.parse(sort)), MAPPINGS, System::currentTimeMillis);
        List<GatewaySort.Key> keys = new ArrayList<>();
        for (int i = 0; i < sources.length; i++) {
            ValuesDoc doc = new ValuesDoc("" + i, Float.NaN,
                    DocumentParser.parse(MAPPINGS, Json.parse(sources[i]), "" + i).values(), f -> false);
            keys.add(s.key(doc, i));
        }
        keys.sort(s.order());
        return keys.stream().map(k -> k.position() + "=" + Json.write(new JsonValue.JsonArray(s.render(k))))
                .toList();
    }

    @Test
    void minAndMaxPickFromArraysAndMissingGoesLastInEitherDirection() {
        String[] docs = {"{\"l\":[5,1]}", "{\"l\":3}", "{}", "{\"l\":[2,9]}"};
        assertThat(order("[{\"l\":\"asc\"}]", docs))
                .containsExactly("0=[1]", "3=[2]", "1=[3]", "2=[9223372036854775807]");
        assertThat(order("[{\"l\":\"desc\"}]", docs))
                .containsExactly("3=[9]", "0=[5]", "1=[3]", "2=[-9223372036854775808]");
        assertThat(order("[{\"l\":{\"order\":\"asc\",\"missing\":\"_first\"}}]", docs).get(0))
                .isEqualTo("2=[-9223372036854775808]");
    }

    @Test
    void reducedModesRoundIntegralAveragesAndTiesKeepIndexOrder() {
        assertThat(order("[{\"l\":{\"order\":\"asc\",\"mode\":\"avg\"}}]", "{\"l\":[1,10]}", "{\"l\":6}",
                "{\"l\":[2,3]}")).containsExactly("2=[3]", "0=[6]", "1=[6]");
        assertThat(order("[{\"d\":{\"order\":\"desc\",\"mode\":\"median\"}}]", "{\"d\":[1,2]}", "{}"))
                .containsExactly("0=[1.5]", "1=[\"-Infinity\"]");
    }

    @Test
    void keywordsCompareByCodePointAndMissingRendersNull() {
        assertThat(order("[{\"k\":\"asc\"}]", "{\"k\":\"\uD83D\uDE00\"}", "{\"k\":\"\uFFFD\"}", "{}", "{\"k\":\"B\"}"))
                .containsExactly("3=[\"B\"]", "1=[\"\uFFFD\"]", "0=[\"\uD83D\uDE00\"]", "2=[null]");
    }

    @Test
    void searchAfterIsStrictlyAfter() {
        GatewaySort s = GatewaySort.of("idx", SortParser.parse(Json.parse("[{\"l\":\"asc\"}]")), MAPPINGS, System::currentTimeMillis);
        Object[] after = s.parseAfter(List.of(new JsonValue.JsonNumber(3)));
        ValuesDoc three = new ValuesDoc("a", Float.NaN, DocumentParser.parse(MAPPINGS, Json.parse("{\"l\":3}"), "a")
                .values(), f -> false);
        ValuesDoc four = new ValuesDoc("b", Float.NaN, DocumentParser.parse(MAPPINGS, Json.parse("{\"l\":4}"), "b")
                .values(), f -> false);
        assertThat(s.isAfter(s.key(three, 0), after)).isFalse();
        assertThat(s.isAfter(s.key(four, 1), after)).isTrue();
        assertThatThrownBy(() -> s.parseAfter(List.of(new JsonValue.JsonString("x"))))
                .isInstanceOf(GatewayException.class).hasMessageContaining("Failed to parse search_after value [x]");
    }

    @Test
    void theSameErrorsAsANativeSort() {
        assertThatThrownBy(() -> GatewaySort.of("idx", SortParser.parse(Json.parse("[\"x\"]")), MAPPINGS, System::currentTimeMillis))
                .hasMessageContaining("Fielddata is disabled on [x] in [idx]");
        assertThatThrownBy(() -> GatewaySort.of("idx", SortParser.parse(Json.parse("[\"nope\"]")), MAPPINGS, System::currentTimeMillis))
                .hasMessageContaining("No mapping found for [nope] in order to sort on");
        assertThatThrownBy(() -> GatewaySort.of("idx", SortParser.parse(Json.parse("[\"_id\"]")), MAPPINGS, System::currentTimeMillis))
                .hasMessageContaining("Fielddata access on the _id field is disallowed");
    }
}
