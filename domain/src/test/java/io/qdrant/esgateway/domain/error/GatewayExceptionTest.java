package io.qdrant.esgateway.domain.error;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GatewayExceptionTest {

    @Test
    void index_not_found_carries_elasticsearchs_metadata_in_order() {
        GatewayException e = GatewayException.indexNotFound("logs");

        assertThat(e.kind()).isEqualTo(ErrorKind.INDEX_NOT_FOUND);
        assertThat(e.reason()).isEqualTo("no such index [logs]");
        assertThat(List.copyOf(e.metadata().entrySet())).containsExactly(Map.entry("resource.type", "index_or_alias"),
                Map.entry("resource.id", "logs"), Map.entry("index_uuid", "_na_"), Map.entry("index", "logs"));
    }

    @Test
    void already_exists_names_the_index_and_its_uuid() {
        GatewayException e = GatewayException.alreadyExists("logs", "u1");

        assertThat(e.kind()).isEqualTo(ErrorKind.RESOURCE_ALREADY_EXISTS);
        assertThat(e.reason()).isEqualTo("index [logs/u1] already exists");
        assertThat(e.metadata()).isEqualTo(Map.of("index_uuid", "u1", "index", "logs"));
    }

    @Test
    void mapping_failed_wraps_its_detail_as_the_cause() {
        GatewayException e = GatewayException.mappingFailed("bad field");

        assertThat(e.reason()).isEqualTo("Failed to parse mapping: bad field");
        assertThat(e.gatewayCause().reason()).isEqualTo("bad field");
        assertThat(e.gatewayCause().kind()).isEqualTo(ErrorKind.MAPPER_PARSING);
    }

    @Test
    void a_foreign_cause_is_not_a_gateway_cause() {
        GatewayException e = GatewayException.backendUnavailable("down", new IllegalStateException("x"));

        assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_UNAVAILABLE);
        assertThat(e.getCause()).isInstanceOf(IllegalStateException.class);
        assertThat(e.gatewayCause()).isNull();
    }

    @Test
    void aliases_not_found_lists_the_aliases() {
        GatewayException e = GatewayException.aliasesNotFound(List.of("a", "b"));

        assertThat(e.reason()).isEqualTo("aliases [a,b] missing");
        assertThat(e.metadata()).isEqualTo(Map.of("resource.type", "aliases", "resource.id", "a,b"));
    }

    @Test
    void unsupported_names_the_feature() {
        assertThat(GatewayException.unsupported("thing [x]").reason()).isEqualTo("thing [x] is not supported by the gateway");
    }
}
