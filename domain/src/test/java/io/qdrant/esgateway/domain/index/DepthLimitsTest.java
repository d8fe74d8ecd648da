package io.qdrant.esgateway.domain.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.query.dsl.QueryDsl;
import org.junit.jupiter.api.Test;

/** The parsers' own depth bounds: ES's index.mapping.depth.limit and indices.query.bool.max_nested_depth. */
class DepthLimitsTest {

    /** {@code n} nested object fields o1.o2…, a keyword in the deepest. */
    private static String objects(int n) {
        StringBuilder open = new StringBuilder("{\"properties\":");
        for (int i = 1; i <= n; i++) {
            open.append("{\"o").append(i).append("\":{\"properties\":");
        }
        return open + "{\"leaf\":{\"type\":\"keyword\"}}" + "}}".repeat(n) + "}";
    }

    private static String bools(int queries) {
        return "{\"bool\":{\"must\":[".repeat(queries - 1) + "{\"match_all\":{}}" + "]}}".repeat(queries - 1);
    }

    @Test
    void aMappingOfNineteenNestedObjectsIsWithinTheLimitAndTwentyAreNot() {
        MappingDepth.check(Mappings.parse(Json.parse(objects(19))));
        StringBuilder path = new StringBuilder("o1");
        for (int i = 2; i <= 20; i++) {
            path.append(".o").append(i);
        }
        assertThatThrownBy(() -> MappingDepth.check(Mappings.parse(Json.parse(objects(300)))))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
                    assertThat(e.reason()).isEqualTo("Limit of mapping depth [20] has been exceeded due to object"
                            + " field [" + path + "]");
                });
    }

    @Test
    void aQueryMayHoldThirtyLevelsOfQueries() {
        assertThat(QueryDsl.parse(Json.parse(bools(30)))).isNotNull();
        assertThatThrownBy(() -> QueryDsl.parse(Json.parse(bools(31))))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ErrorKind.X_CONTENT_PARSE);
                    assertThat(e.reason()).isEqualTo("The nested depth of the query exceeds the maximum nested depth"
                            + " for queries set in [indices.query.bool.max_nested_depth]");
                });
        // a refused query leaves the count at zero: the next one parses again
        assertThat(QueryDsl.parse(Json.parse(bools(30)))).isNotNull();
        assertThatThrownBy(() -> QueryDsl.parse(Json.parse(bools(400)))).isInstanceOf(GatewayException.class);
    }
}
