package io.qdrant.esgateway.domain.document;

import static io.qdrant.esgateway.domain.document.DocumentParsing.assertWrapped;
import static io.qdrant.esgateway.domain.document.DocumentParsing.field;
import static io.qdrant.esgateway.domain.document.DocumentParsing.mapping;
import static io.qdrant.esgateway.domain.document.DocumentParsing.parse;
import static io.qdrant.esgateway.domain.document.DocumentParsing.rejection;
import static io.qdrant.esgateway.domain.document.DocumentParsing.values;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.document.IndexedValue.Vector;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.index.Mappings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DenseVectorParsingTest {
    static final Mappings COSINE = field("{'type':'dense_vector','dims':3,'similarity':'cosine'}");
    static final Mappings DOT = field("{'type':'dense_vector','dims':3,'similarity':'dot_product'}");
    static final Mappings L2 = field("{'type':'dense_vector','dims':3,'similarity':'l2_norm'}");
    static final Mappings UNINDEXED = field("{'type':'dense_vector','dims':3,'index':false}");

    @Test
    void anArrayOfDimsNumbersIsOneVector() {
        assertThat(values(COSINE, "{'f':[1,2.5,-3]}")).containsExactly(new Vector("f", new float[] {1f, 2.5f, -3f}));
        assertThat(values(L2, "{'f':[0,0,0]}")).containsExactly(new Vector("f", new float[] {0f, 0f, 0f}));
    }

    @Test
    void nullIsNoVector() {
        assertThat(parse(COSINE, "{'f':null}").values()).isEmpty();
    }

    @Test
    void tooFewDimensionsAreRejected() {
        assertWrapped(rejection(COSINE, "{'f':[1,2]}"), ErrorKind.ILLEGAL_ARGUMENT, "The [dense_vector] field [f] in "
                + "doc [document with id '1'] has a different number of dimensions [2] than defined in the mapping [3]");
        assertWrapped(rejection(COSINE, "{'f':[]}"), ErrorKind.ILLEGAL_ARGUMENT, "The [dense_vector] field [f] in "
                + "doc [document with id '1'] has a different number of dimensions [0] than defined in the mapping [3]");
    }

    @Test
    void tooManyDimensionsAreRejected() {
        assertWrapped(rejection(COSINE, "{'f':[1,2,3,4]}"), ErrorKind.ILLEGAL_ARGUMENT, "The [dense_vector] field [f] "
                + "in doc [document with id '1'] has more dimensions than defined in the mapping [3]");
    }

    @Test
    void cosineRejectsTheZeroVector() {
        assertWrapped(rejection(COSINE, "{'f':[0,0,0]}"), ErrorKind.ILLEGAL_ARGUMENT, "The [cosine] similarity "
                + "does not support vectors with zero magnitude. Preview of invalid vector: [0.0, 0.0, 0.0]");
    }

    @Test
    void dotProductWantsUnitLength() {
        assertThat(values(DOT, "{'f':[0.6,0.8,0]}")).containsExactly(new Vector("f", new float[] {0.6f, 0.8f, 0f}));
        assertThat(values(DOT, "{'f':[1.00004,0,0]}")).hasSize(1);
        assertWrapped(rejection(DOT, "{'f':[1,1,0]}"), ErrorKind.ILLEGAL_ARGUMENT, "The [dot_product] similarity "
                + "can only be used with unit-length vectors. Preview of invalid vector: [1.0, 1.0, 0.0]");
        assertWrapped(rejection(DOT, "{'f':[1.0001,0,0]}"), ErrorKind.ILLEGAL_ARGUMENT, "The [dot_product] "
                + "similarity can only be used with unit-length vectors. Preview of invalid vector: [1.0001, 0.0, 0.0]");
    }

    @Test
    void thePreviewShowsFiveComponentsAtMost() {
        Mappings six = field("{'type':'dense_vector','dims':6,'similarity':'dot_product'}");
        assertWrapped(rejection(six, "{'f':[-12.1,2.7,-4,1.05,10,29.9]}"), ErrorKind.ILLEGAL_ARGUMENT,
                "The [dot_product] similarity can only be used with unit-length vectors. "
                        + "Preview of invalid vector: [-12.1, 2.7, -4.0, 1.05, 10.0, ...]");
    }

    @Test
    void anUnindexedVectorHasNoSimilarityToCheck() {
        assertThat(values(UNINDEXED, "{'f':[0,0,0]}")).containsExactly(new Vector("f", new float[] {0f, 0f, 0f}));
    }

    @Test
    void infiniteComponentsAreRejected() {
        assertWrapped(rejection(L2, "{'f':[1,1e39,2]}"), ErrorKind.ILLEGAL_ARGUMENT, "element_type [float] vectors "
                + "do not support infinite values but found [Infinity] at dim [1]; Preview of invalid vector: "
                + "[1.0, Infinity, 2.0]");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "[1,'2',3]      | VALUE_STRING",
        "[1,true,3]     | VALUE_BOOLEAN",
        "[1,null,3]     | VALUE_NULL",
        "[[1,2,3]]      | START_ARRAY",
        "[{'a':1},2,3]  | START_OBJECT",
    })
    void componentsMustBeNumbers(String vector, String found) {
        assertWrapped(rejection(COSINE, "{'f':" + vector + "}"), ErrorKind.PARSING,
                "Failed to parse object: expecting token of type [VALUE_NUMBER] but found [" + found + "]");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "{'f':5,'g':1}   | FIELD_NAME",
        "{'f':'abc'}     | END_OBJECT",
        "{'f':{'a':1}}   | FIELD_NAME",
        "{'f':{}}        | END_OBJECT",
    })
    void aValueThatIsNotAnArrayIsRejectedWithTheTokenFoundAfterIt(String document, String found) {
        assertWrapped(rejection(COSINE, document), ErrorKind.PARSING,
                "Failed to parse object: expecting token of type [VALUE_NUMBER] but found [" + found + "]");
    }

    @Test
    void aDocumentHoldsOneVectorPerField() {
        Mappings m = mapping("{'properties':{'o':{'properties':{'v':{'type':'dense_vector','dims':2,"
                + "'similarity':'l2_norm'}}}}}");
        assertThat(values(m, "{'o':[{'v':[1,2]},{}]}")).containsExactly(new Vector("o.v", new float[] {1f, 2f}));
        assertWrapped(rejection(m, "{'o':[{'v':[1,2]},{'v':[3,4]}]}"), ErrorKind.ILLEGAL_ARGUMENT,
                "Field [o.v] of type [dense_vector] doesn't support indexing multiple values for the same field in "
                        + "the same document");
    }

    @Test
    void isFoundUnderItsFullPath() {
        Mappings m = mapping("{'properties':{'a':{'properties':{'v':{'type':'dense_vector','dims':2,"
                + "'similarity':'cosine'}}}}}");
        assertThat(values(m, "{'a.v':[3,4]}")).containsExactly(new Vector("a.v", new float[] {3f, 4f}));
        assertWrapped(rejection(m, "{'a':{'v':[1]}}"), ErrorKind.ILLEGAL_ARGUMENT, "The [dense_vector] field [a.v] "
                + "in doc [document with id '1'] has a different number of dimensions [1] than defined in the mapping [2]");
    }
}
