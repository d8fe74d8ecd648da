package io.qdrant.esgateway.domain.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HitOrderTest {
    private static final DocumentVersion V = new DocumentVersion(1, 0, 1);

    private static Hit hit(String id, float score, JsonValue... sort) {
        return new Hit("i", id, score, List.of(sort), JsonObject.of(), V);
    }

    private static List<String> order(String body, Hit... hits) {
        SearchRequest r = SearchRequestParser.parse(Optional.of(Json.parse(body.replace('\'', '"'))), Map.of());
        List<Hit> list = new ArrayList<>(List.of(hits));
        list.sort(HitOrder.of(r));
        return list.stream().map(Hit::id).toList();
    }

    @Test
    void byScoreDescendingWhenThereIsNoSort() {
        assertThat(order("{}", hit("a", 1f), hit("b", 3f), hit("c", 2f))).containsExactly("b", "c", "a");
    }

    @Test
    void numbersNumericallyStringsByBytesNullsLast() {
        assertThat(order("{'sort':['n']}", hit("a", Float.NaN, JsonValue.number(10)),
                hit("b", Float.NaN, JsonValue.number(9)), hit("c", Float.NaN, new JsonValue.JsonNumber(9.5))))
                .containsExactly("b", "c", "a");
        assertThat(order("{'sort':['k']}", hit("a", Float.NaN, JsonValue.string("b")),
                hit("b", Float.NaN, JsonValue.JsonNull.INSTANCE), hit("c", Float.NaN, JsonValue.string("B")),
                hit("d", Float.NaN, JsonValue.string("é"))))
                .containsExactly("c", "a", "d", "b");
        assertThat(order("{'sort':[{'k':'desc'}]}", hit("a", Float.NaN, JsonValue.string("b")),
                hit("b", Float.NaN, JsonValue.JsonNull.INSTANCE), hit("c", Float.NaN, JsonValue.string("c"))))
                .containsExactly("c", "a", "b");
        assertThat(order("{'sort':[{'k':{'order':'asc','missing':'_first'}}]}", hit("a", Float.NaN, JsonValue.string("b")),
                hit("b", Float.NaN, JsonValue.JsonNull.INSTANCE)))
                .containsExactly("b", "a");
    }

    @Test
    void laterKeysBreakTiesAndEqualHitsKeepTheirOrder() {
        assertThat(order("{'sort':['n',{'m':'desc'}]}", hit("a", Float.NaN, JsonValue.number(1), JsonValue.number(1)),
                hit("b", Float.NaN, JsonValue.number(1), JsonValue.number(2)),
                hit("c", Float.NaN, JsonValue.number(0), JsonValue.number(0)),
                hit("d", Float.NaN, JsonValue.number(1), JsonValue.number(1))))
                .containsExactly("c", "b", "a", "d");
    }
}
