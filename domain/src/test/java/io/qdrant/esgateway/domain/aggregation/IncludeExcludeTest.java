package io.qdrant.esgateway.domain.aggregation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.Json;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class IncludeExcludeTest {
    private static final FieldRef KEYWORD = new FieldRef("tag", FieldRef.ValueKind.KEYWORD);
    private static final FieldRef LONG = new FieldRef("n", FieldRef.ValueKind.LONG);

    private static Predicate<Object> filter(String include, String exclude, FieldRef field) {
        IncludeExclude ie = IncludeExclude.NONE;
        if (include != null) {
            ie = IncludeExclude.parseInclude(ie, Json.parse(include));
        }
        if (exclude != null) {
            ie = IncludeExclude.parseExclude(ie, Json.parse(exclude));
        }
        return ie.filter("agg", field, System::currentTimeMillis);
    }

    @Test
    void regexIncludeAndValueExclude() {
        Predicate<Object> p = filter("\"a|b\"", "[\"b\"]", KEYWORD);
        assertThat(p.test("a")).isTrue();
        assertThat(p.test("b")).isFalse();
        assertThat(p.test("c")).isFalse();
        assertThat(p.test("ab")).isFalse(); // the whole term must match
    }

    @Test
    void valuesAreParsedInTheFieldsType() {
        Predicate<Object> p = filter("[1, \"5\", 7]", "[7]", LONG);
        assertThat(p.test(1L)).isTrue();
        assertThat(p.test(5L)).isTrue();
        assertThat(p.test(7L)).isFalse();
        assertThat(p.test(2L)).isFalse();
    }

    @Test
    void regexOnANumericFieldIsElasticsearchsError() {
        assertThatThrownBy(() -> filter("\"1.*\"", null, LONG)).isInstanceOfSatisfying(GatewayException.class,
                e -> {
                    assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
                    assertThat(e.reason()).startsWith("Aggregation [agg] cannot support regular expression style");
                });
    }

    @Test
    void partitionsHashAsElasticsearch() {
        // facts read from Elasticsearch 8.15: with 2 partitions, "a", "b", "c", 1 and 2 are in partition 1, 5 in 0
        Predicate<Object> one = filter("{\"partition\":1,\"num_partitions\":2}", null, KEYWORD);
        assertThat(one.test("a")).isTrue();
        assertThat(one.test("b")).isTrue();
        assertThat(one.test("c")).isTrue();
        Predicate<Object> longs = filter("{\"partition\":1,\"num_partitions\":2}", null, LONG);
        assertThat(longs.test(1L)).isTrue();
        assertThat(longs.test(2L)).isTrue();
        assertThat(longs.test(5L)).isFalse();
    }

    @Test
    void murmur3MatchesTheReferenceVectors() {
        assertThat(IncludeExclude.murmur3(new byte[0], 0)).isEqualTo(0);
        assertThat(IncludeExclude.murmur3(new byte[0], 1)).isEqualTo(0x514E28B7);
        assertThat(IncludeExclude.murmur3("aaaa".getBytes(), 0x9747b28c)).isEqualTo(0x5A97808A);
        assertThat(IncludeExclude.murmur3("abc".getBytes(), 0)).isEqualTo(0xB3DD93FA);
    }

    @Test
    void partitionWithoutNumPartitionsIsElasticsearchsError() {
        assertThatThrownBy(() -> filter("{\"partition\":0}", null, KEYWORD)).isInstanceOfSatisfying(
                GatewayException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ErrorKind.X_CONTENT_PARSE);
                    assertThat(e.reason()).isEqualTo("[terms] failed to parse field [include]");
                    assertThat(e.gatewayCause().reason()).isEqualTo("Missing [num_partitions] parameter for"
                            + " partition-based include");
                });
    }
}
