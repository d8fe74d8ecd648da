package io.qdrant.esgateway.domain.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class HighlightParserTest {

    static HighlightSpec parse(String json) {
        return HighlightParser.parse(Json.parse(json.replace('\'', '"')));
    }

    static GatewayException failure(String json) {
        try {
            parse(json);
        } catch (GatewayException e) {
            return e;
        }
        throw new AssertionError("no failure for " + json);
    }

    @Test
    void defaultsAreElasticsearchs() {
        HighlightSpec spec = parse("{'fields':{'title':{}}}");
        assertThat(spec.fields()).containsExactly(new HighlightSpec.FieldSpec("title",
                new HighlightSpec.Options("<em>", "</em>", 100, 5, 0, false, true, false)));
    }

    @Test
    void fieldOptionsOverrideTopLevelOnes() {
        HighlightSpec spec = parse("{'pre_tags':['<b>','<i>'],'post_tags':['</b>'],'fragment_size':40,"
                + "'number_of_fragments':3,'no_match_size':7,'order':'score','require_field_match':false,"
                + "'encoder':'html','fields':{'title':{},'body':{'fragment_size':50,'number_of_fragments':0,"
                + "'pre_tags':['['],'post_tags':[']']}}}");
        assertThat(spec.fields()).extracting(HighlightSpec.FieldSpec::field).containsExactly("title", "body");
        assertThat(spec.fields().get(0).options())
                .isEqualTo(new HighlightSpec.Options("<b>", "</b>", 40, 3, 7, true, false, true));
        assertThat(spec.fields().get(1).options())
                .isEqualTo(new HighlightSpec.Options("[", "]", 50, 0, 7, true, false, true));
    }

    @Test
    void fieldsAsAnArrayKeepTheirOrder() {
        HighlightSpec spec = parse("{'fields':[{'b':{}},{'a':{'number_of_fragments':1}}]}");
        assertThat(spec.fields()).extracting(HighlightSpec.FieldSpec::field).containsExactly("b", "a");
        assertThat(spec.fields().get(1).options().numberOfFragments()).isEqualTo(1);
    }

    @Test
    void patternsMatchFieldNames() {
        HighlightSpec.FieldSpec star = parse("{'fields':{'ti*':{}}}").fields().get(0);
        assertThat(star.isPattern()).isTrue();
        assertThat(star.matches("title")).isTrue();
        assertThat(star.matches("title.std")).isTrue();
        assertThat(star.matches("body")).isFalse();
        assertThat(parse("{'fields':{'title':{}}}").fields().get(0).matches("title.std")).isFalse();
    }

    @Test
    void styledTagsAndUnifiedType() {
        HighlightSpec.Options o = parse("{'tags_schema':'styled','type':'unified','fields':{'a':{'type':'unified'}}}")
                .fields().get(0).options();
        assertThat(o.preTag()).isEqualTo("<em class=\"hlt1\">");
        assertThat(o.postTag()).isEqualTo("</em>");
    }

    @Test
    void otherHighlightersAndUnknownKeysAreRejected() {
        assertThat(failure("{'type':'plain','fields':{'a':{}}}").kind()).isEqualTo(ErrorKind.UNSUPPORTED);
        assertThat(failure("{'fields':{'a':{'type':'fvh'}}}").getMessage()).contains("[fvh]");
        assertThat(failure("{'fields':{'a':{}},'colour':'red'}").kind()).isEqualTo(ErrorKind.X_CONTENT_PARSE);
        assertThatThrownBy(() -> parse("{'fields':{'a':{'colour':'red'}}}"))
                .rootCause().hasMessageContaining("unknown field [colour]");
        assertThat(failure("{'fields':{'a':{}},'order':'sideways'}").kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
        assertThat(failure("{'fields':{'a':{}},'highlight_query':{}}").kind()).isEqualTo(ErrorKind.UNSUPPORTED);
    }

    @Test
    void unknownKeysAreSuggestedAndAFieldsErrorIsWrappedAsElasticsearchDoes() {
        assertThat(failure("{'pre_tag':['<b>']}").reason())
                .isEqualTo("[highlight] unknown field [pre_tag] did you mean any of [pre_tags, post_tags]?");
        // fragment_offset and matched_fields are options of a field only, fields one of the top level only
        assertThat(failure("{'fragment_offse':1}").reason())
                .isEqualTo("[highlight] unknown field [fragment_offse] did you mean any of [fragment_size,"
                        + " fragmenter]?");
        GatewayException inField = failure("{'fields':{'f':{'fiel':1}}}");
        assertThat(inField.reason()).isEqualTo("[highlight] failed to parse field [fields]");
        assertThat(inField.gatewayCause().reason()).isEqualTo("[fields] failed to parse field [f]");
        assertThat(inField.gatewayCause().gatewayCause().reason()).isEqualTo("[highlight_field] unknown field [fiel]");
        GatewayException size = failure("{'fields':{'f':{'fragment_size':'abc'}}}").gatewayCause().gatewayCause();
        assertThat(size.reason()).isEqualTo("[highlight_field] failed to parse field [fragment_size]");
        assertThat(size.gatewayCause().javaType()).isEqualTo("number_format_exception");
        assertThat(size.gatewayCause().reason()).isEqualTo("For input string: \"abc\"");
        assertThat(failure("{'fragment_size':true}").reason())
                .isEqualTo("[highlight] fragment_size doesn't support values of type: VALUE_BOOLEAN");
        GatewayException match = failure("{'require_field_match':'x'}");
        assertThat(match.reason()).isEqualTo("[highlight] failed to parse field [require_field_match]");
        assertThat(match.gatewayCause().reason())
                .isEqualTo("Failed to parse value [x] as only [true] or [false] are allowed.");
    }

    @Test
    void emptyFieldsAreAllowed() {
        assertThat(parse("{}").fields()).isEqualTo(List.of());
    }
}
