package io.qdrant.esgateway.domain.json;

import static io.qdrant.esgateway.domain.json.JsonFixtures.object;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.Position;
import org.junit.jupiter.api.Test;

class CompactPositionsTest {

    @Test
    void placesEveryValueWhereItsCompactTextPutsIt() {
        // {"t":"hello","l":[1,true],"o":{"é":null,"n":2.5}}
        JsonObject placed = CompactPositions.of(object("{'t':'hello','l':[1,true],'o':{'é':null,'n':2.5}}"));
        assertThat(Position.prefix(placed)).isEqualTo("[1:1] ");
        assertThat(Position.prefix(placed.keyAt("t"))).isEqualTo("[1:2] ");
        assertThat(Position.prefix(placed.get("t"))).isEqualTo("[1:6] ");
        assertThat(Position.prefix(placed.keyAt("l"))).isEqualTo("[1:14] ");
        JsonArray l = (JsonArray) placed.get("l");
        assertThat(Position.prefix(l)).isEqualTo("[1:18] ");
        assertThat(Position.prefix(l.elements().get(1))).isEqualTo("[1:21] ");
        assertThat(Position.prefix(l.end())).isEqualTo("[1:25] ");
        JsonObject o = (JsonObject) placed.get("o");
        assertThat(Position.prefix(o)).isEqualTo("[1:31] ");
        // "é" is two bytes of UTF-8: the columns after it count both, as a parser of the bytes does
        assertThat(Position.prefix(o.keyAt("n"))).isEqualTo("[1:42] ");
        assertThat(Position.prefix(o.get("n"))).isEqualTo("[1:46] ");
        assertThat(Position.prefix(o.end())).isEqualTo("[1:49] ");
        assertThat(Position.prefix(placed.end())).isEqualTo("[1:50] ");
        assertThat(Json.write(placed).getBytes(java.nio.charset.StandardCharsets.UTF_8)).hasSize(50);
    }

    @Test
    void aPlacedTreeEqualsTheTreeItPlaces() {
        JsonObject tree = object("{'a':[1,{'b':'c'}],'d':false}");
        assertThat(CompactPositions.of(tree)).isEqualTo(tree).hasSameHashCodeAs(tree);
        assertThat(tree.at()).isZero();
        assertThat(Position.prefix(tree)).isEmpty();
    }
}
