package io.qdrant.esgateway.domain.document;

import static io.qdrant.esgateway.domain.document.DocumentParsing.mapping;
import static io.qdrant.esgateway.domain.error.Failures.failure;
import static io.qdrant.esgateway.domain.json.JsonFixtures.object;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.CompactPositions;
import org.junit.jupiter.api.Test;

/** Reasons start with the [line:col] where Elasticsearch's parser stood (values placed as in their compact text). */
class DocumentParsePositionsTest {
    static final Mappings MAPPINGS = mapping("{'properties':{'i':{'type':'integer'},'l':{'type':'long'},"
            + "'k':{'type':'keyword'},'o':{'properties':{'a':{'type':'keyword'}}},"
            + "'v':{'type':'dense_vector','dims':3},"
            + "'s':{'type':'object','dynamic':'strict','properties':{'x':{'type':'keyword'}}}}}");

    private static GatewayException rejection(String document) {
        return failure(() -> DocumentParser.parse(MAPPINGS, CompactPositions.of(object(document)), "1"));
    }

    @Test
    void aScalarThatDoesNotFitNamesItsStartAndTheJavaExceptionOfItsParser() {
        GatewayException e = rejection("{'i':'abc'}");
        assertThat(e.reason()).isEqualTo("[1:6] failed to parse field [i] of type [integer] in document with id '1'."
                + " Preview of field's value: 'abc'");
        assertThat(e.gatewayCause().kind()).isEqualTo(ErrorKind.JAVA_EXCEPTION);
        assertThat(e.gatewayCause().javaType()).isEqualTo("number_format_exception");
        assertThat(rejection("{'l':[1,[2,'x']]}").reason()).startsWith("[1:12] failed to parse field [l]");
    }

    @Test
    void anObjectALeafCannotReadNamesItsEndAndItsStartInTheCause() {
        GatewayException e = rejection("{'k':{'a':1}}");
        assertThat(e.reason()).startsWith("[1:12] failed to parse field [k] of type [keyword]");
        assertThat(e.gatewayCause().javaType()).isEqualTo("illegal_state_exception");
        assertThat(e.gatewayCause().reason()).isEqualTo("Can't get text on a START_OBJECT at 1:6");
    }

    @Test
    void aConcreteValueForAnObjectNamesTheValueAndInAnArrayNoField() {
        assertThat(rejection("{'o':5}").reason()).isEqualTo("[1:6] object mapping for [o] tried to parse field [o] as"
                + " object, but found a concrete value");
        assertThat(rejection("{'o':[5]}").reason()).isEqualTo("[1:7] object mapping for [o] tried to parse field"
                + " [null] as object, but found a concrete value");
    }

    @Test
    void aStrictObjectNamesTheNewValue() {
        for (String value : new String[] {"1", "{'z':1}", "[1]"}) {
            GatewayException e = rejection("{'s':{'y':" + value + "}}");
            assertThat(e.kind()).isEqualTo(ErrorKind.STRICT_DYNAMIC_MAPPING);
            assertThat(e.reason()).isEqualTo("[1:11] mapping set to strict, dynamic introduction of [y] within [s] is"
                    + " not allowed");
        }
    }

    @Test
    void aMetadataFieldFailsAsItsFieldMapperWithThePositionsInsideAndAfter() {
        GatewayException e = rejection("{'_source':{'a':1}}");
        assertThat(e.reason()).isEqualTo("[1:18] failed to parse field [_source] of type [_source] in document with"
                + " id '1'. Preview of field's value: '{a=1}'");
        assertThat(e.gatewayCause().kind()).isEqualTo(ErrorKind.DOCUMENT_PARSING);
        assertThat(e.gatewayCause().reason()).startsWith("[1:12] Field [_source] is a metadata field");
    }

    @Test
    void fieldNameAndVectorFailuresNameWhereTheyWereFound() {
        assertThat(rejection("{'':5}").reason()).isEqualTo("[1:2] failed to parse: field name cannot be an empty"
                + " string");
        assertThat(rejection("{'v':[1,2]}").reason()).startsWith("[1:10] failed to parse: The [dense_vector] field"
                + " [v] in doc [document with id '1'] has a different number of dimensions [2]");
        assertThat(rejection("{'v':[1,2,3,4]}").reason()).startsWith("[1:13] failed to parse: The [dense_vector]"
                + " field [v] in doc [document with id '1'] has more dimensions");
        GatewayException word = rejection("{'v':[1,'a',3]}");
        assertThat(word.reason()).isEqualTo("[1:9] failed to parse: Failed to parse object: expecting token of type"
                + " [VALUE_NUMBER] but found [VALUE_STRING]");
        assertThat(word.gatewayCause().kind()).isEqualTo(ErrorKind.PARSING);
        assertThat(word.gatewayCause().metadata()).containsEntry("line", "1").containsEntry("col", "9");
    }

    @Test
    void aTreeWithoutPositionsGivesTheSameReasonsWithoutThem() {
        GatewayException e = failure(() -> DocumentParser.parse(MAPPINGS, object("{'k':{'a':1}}"), "1"));
        assertThat(e.reason()).startsWith("failed to parse field [k] of type [keyword]");
        assertThat(e.gatewayCause().reason()).isEqualTo("Can't get text on a START_OBJECT");
    }
}
