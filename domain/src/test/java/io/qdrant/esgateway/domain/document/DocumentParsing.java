package io.qdrant.esgateway.domain.document;

import static io.qdrant.esgateway.domain.error.Failures.failure;
import static io.qdrant.esgateway.domain.json.JsonFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.Mappings;
import java.util.List;

/** Fixtures for the document parser tests: mappings and documents written with single quotes, id {@code 1}. */
final class DocumentParsing {
    private DocumentParsing() {
    }

    static Mappings mapping(String json) {
        return Mappings.parse(json(json));
    }

    /** A mapping with one field {@code f} defined by {@code definition}. */
    static Mappings field(String definition) {
        return mapping("{'properties':{'f':" + definition + "}}");
    }

    static ParsedDocument parse(Mappings mappings, String document) {
        return DocumentParser.parse(mappings, json(document), "1");
    }

    static List<IndexedValue> values(Mappings mappings, String document) {
        return parse(mappings, document).values();
    }

    static GatewayException rejection(Mappings mappings, String document) {
        return failure(() -> parse(mappings, document));
    }

    /**
     * Asserts Elasticsearch's field failure: "failed to parse field [f] of type [t] in document with id '1'.
     * Preview of field's value: 'v'" caused by {@code causeKind} with {@code causeReason}.
     */
    static void assertFieldFailure(GatewayException e, String field, String type, String preview, ErrorKind causeKind,
                                   String causeReason) {
        assertThat(e.kind()).isEqualTo(ErrorKind.DOCUMENT_PARSING);
        assertThat(e.reason()).isEqualTo("failed to parse field [" + field + "] of type [" + type
                + "] in document with id '1'. Preview of field's value: '" + preview + "'");
        assertThat(e.gatewayCause()).as("cause").isNotNull();
        assertThat(e.gatewayCause().kind()).isEqualTo(causeKind);
        assertThat(e.gatewayCause().reason()).isEqualTo(causeReason);
    }

    /** Asserts Elasticsearch's generic wrapper "failed to parse: <detail>" caused by the detail. */
    static void assertWrapped(GatewayException e, ErrorKind causeKind, String detail) {
        assertThat(e.kind()).isEqualTo(ErrorKind.DOCUMENT_PARSING);
        assertThat(e.reason()).isEqualTo("failed to parse: " + detail);
        assertThat(e.gatewayCause()).as("cause").isNotNull();
        assertThat(e.gatewayCause().kind()).isEqualTo(causeKind);
        assertThat(e.gatewayCause().reason()).isEqualTo(detail);
    }

    static void assertPlain(GatewayException e, ErrorKind kind, String reason) {
        assertThat(e.kind()).isEqualTo(kind);
        assertThat(e.reason()).isEqualTo(reason);
        assertThat(e.getCause()).isNull();
    }
}
