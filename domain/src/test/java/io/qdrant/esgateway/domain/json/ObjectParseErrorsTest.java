package io.qdrant.esgateway.domain.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The suggestions and texts below are Elasticsearch 8.15's answers to the same unknown keys. */
class ObjectParseErrorsTest {
    private static final List<String> FIELD_SORT = List.of("order", "missing", "mode", "unmapped_type",
            "numeric_type", "format", "nested");
    private static final List<String> HIGHLIGHT_FIELD = List.of("pre_tags", "post_tags", "tags_schema", "order",
            "highlight_filter", "fragment_size", "number_of_fragments", "encoder", "require_field_match",
            "boundary_max_scan", "boundary_chars", "boundary_scanner", "boundary_scanner_locale", "type",
            "fragmenter", "no_match_size", "force_source", "phrase_limit", "options", "highlight_query",
            "max_analyzed_offset", "fragment_offset", "matched_fields");

    @Test
    void suggestsTheKnownFieldsMoreThanHalfSimilar() {
        assertThat(ObjectParseErrors.didYouMean("ordr", FIELD_SORT)).isEqualTo(" did you mean [order]?");
        assertThat(ObjectParseErrors.didYouMean("orderxxxx", FIELD_SORT)).isEqualTo(" did you mean [order]?");
        assertThat(ObjectParseErrors.didYouMean("nested_pat", FIELD_SORT)).isEqualTo(" did you mean [nested]?");
        // exactly one half similar ("xxde" to "mode") is not enough
        assertThat(ObjectParseErrors.didYouMean("xxde", FIELD_SORT)).isEmpty();
        assertThat(ObjectParseErrors.didYouMean("xxxe", FIELD_SORT)).isEmpty();
    }

    @Test
    void mostSimilarFirstThenByName() {
        assertThat(ObjectParseErrors.didYouMean("ode", FIELD_SORT)).isEqualTo(" did you mean any of [mode, order]?");
        assertThat(ObjectParseErrors.didYouMean("oodeo", FIELD_SORT))
                .isEqualTo(" did you mean any of [mode, order]?");
        assertThat(ObjectParseErrors.didYouMean("fragment_siz", HIGHLIGHT_FIELD))
                .isEqualTo(" did you mean any of [fragment_size, fragment_offset, fragmenter]?");
        assertThat(ObjectParseErrors.didYouMean("pre_tag", HIGHLIGHT_FIELD))
                .isEqualTo(" did you mean any of [pre_tags, post_tags]?");
        assertThat(ObjectParseErrors.didYouMean("boundary_max_sca", HIGHLIGHT_FIELD)).isEqualTo(" did you mean any"
                + " of [boundary_max_scan, boundary_chars, boundary_scanner_locale, boundary_scanner]?");
    }

    @Test
    void errorsCarryThePositionAndTheCause() {
        GatewayException unknown = ObjectParseErrors.unknownField("field_sort", "ordr", JsonValue.Position.of(1, 16),
                FIELD_SORT);
        assertThat(unknown.kind()).isEqualTo(ErrorKind.X_CONTENT_PARSE);
        assertThat(unknown.reason()).isEqualTo("[1:16] [field_sort] unknown field [ordr] did you mean [order]?");
        assertThat(ObjectParseErrors.unknownField("x", "k", 0, List.of()).reason()).isEqualTo("[x] unknown field [k]");
        GatewayException failed = ObjectParseErrors.failedToParse("field_sort", "mode", JsonValue.Position.of(1, 23),
                GatewayException.illegalArgument("Unknown SortMode [foo]"));
        assertThat(failed.reason()).isEqualTo("[1:23] [field_sort] failed to parse field [mode]");
        assertThat(failed.gatewayCause().reason()).isEqualTo("Unknown SortMode [foo]");
    }
}
