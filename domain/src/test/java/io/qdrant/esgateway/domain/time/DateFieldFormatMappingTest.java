package io.qdrant.esgateway.domain.time;

import static io.qdrant.esgateway.domain.error.Failures.failure;
import static io.qdrant.esgateway.domain.json.JsonFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping.DateField;
import io.qdrant.esgateway.domain.index.Mappings;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A date field's {@code format} is checked when the mapping is read, as Elasticsearch checks it. */
class DateFieldFormatMappingTest {

    static Mappings dateField(String format) {
        return Mappings.parse(json("{'properties':{'published':{'type':'date','format':'" + format + "'}}}"));
    }

    @Test
    void aValidFormatIsKeptAsWritten() {
        assertThat(dateField("yyyy-MM-dd||epoch_millis").properties().get("published"))
                .isEqualTo(new DateField(Optional.of("yyyy-MM-dd||epoch_millis")));
    }

    @Test
    void anInvalidFormatFailsTheMappingWithElasticsearchsMessage() {
        GatewayException e = failure(() -> dateField("test_format"));
        assertThat(e.kind()).isEqualTo(ErrorKind.MAPPER_PARSING);
        assertThat(e.reason()).isEqualTo("Failed to parse mapping: Error parsing [format] on field [published]: "
                + "Invalid format: [test_format]: Unknown pattern letter: t");
        assertThat(e.gatewayCause().reason()).isEqualTo("Error parsing [format] on field [published]: "
                + "Invalid format: [test_format]: Unknown pattern letter: t");
    }

    @Test
    void anEmptyFormatFailsTheMapping() {
        GatewayException e = failure(() -> dateField(""));
        assertThat(e.kind()).isEqualTo(ErrorKind.MAPPER_PARSING);
        assertThat(e.reason()).isEqualTo("Failed to parse mapping: Error parsing [format] on field [published]: "
                + "No date pattern provided");
    }

    @Test
    void aWeekBasedFormatIsUnsupported() {
        GatewayException e = failure(() -> dateField("weekyear_week"));
        assertThat(e.kind()).isEqualTo(ErrorKind.UNSUPPORTED);
        assertThat(e.reason()).isEqualTo("the week-based date format [weekyear_week] is not supported by the gateway");
    }
}
