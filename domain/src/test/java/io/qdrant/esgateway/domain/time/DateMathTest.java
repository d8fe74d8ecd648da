package io.qdrant.esgateway.domain.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class DateMathTest {
    private static final DateFormat DEFAULT = DateFormat.defaultFormat();
    /** 2024-03-15T10:20:30.456Z, a Friday. */
    private static final long NOW = Instant.parse("2024-03-15T10:20:30.456Z").toEpochMilli();

    private static long down(String text) {
        return DateMath.parse(text, DEFAULT, null, false, () -> NOW);
    }

    private static long up(String text) {
        return DateMath.parse(text, DEFAULT, null, true, () -> NOW);
    }

    private static long at(String iso) {
        return Instant.parse(iso).toEpochMilli();
    }

    @Test
    void nowAndArithmetic() {
        assertThat(down("now")).isEqualTo(NOW);
        assertThat(down("now-1d")).isEqualTo(at("2024-03-14T10:20:30.456Z"));
        assertThat(down("now+2h")).isEqualTo(at("2024-03-15T12:20:30.456Z"));
        assertThat(down("now-1M")).isEqualTo(at("2024-02-15T10:20:30.456Z"));
        assertThat(down("now+1y-1s")).isEqualTo(at("2025-03-15T10:20:29.456Z"));
        assertThat(down("now+10m")).isEqualTo(at("2024-03-15T10:30:30.456Z"));
    }

    @Test
    void roundingDownAndUp() {
        assertThat(down("now/d")).isEqualTo(at("2024-03-15T00:00:00Z"));
        assertThat(up("now/d")).isEqualTo(at("2024-03-15T23:59:59.999Z"));
        assertThat(down("now-1d/d")).isEqualTo(at("2024-03-14T00:00:00Z"));
        assertThat(down("now/M")).isEqualTo(at("2024-03-01T00:00:00Z"));
        assertThat(up("now/M")).isEqualTo(at("2024-03-31T23:59:59.999Z"));
        assertThat(down("now/y")).isEqualTo(at("2024-01-01T00:00:00Z"));
        assertThat(up("now/y")).isEqualTo(at("2024-12-31T23:59:59.999Z"));
        assertThat(down("now/w")).isEqualTo(at("2024-03-11T00:00:00Z"));
        assertThat(up("now/w")).isEqualTo(at("2024-03-17T23:59:59.999Z"));
        assertThat(down("now/h")).isEqualTo(at("2024-03-15T10:00:00Z"));
        assertThat(down("now/m")).isEqualTo(at("2024-03-15T10:20:00Z"));
        assertThat(up("now/s")).isEqualTo(at("2024-03-15T10:20:30.999Z"));
    }

    @Test
    void anchoredDates() {
        assertThat(down("2024-01-01||+1M/d")).isEqualTo(at("2024-02-01T00:00:00Z"));
        assertThat(up("2024-01-01||+1M/d")).isEqualTo(at("2024-02-01T23:59:59.999Z"));
        assertThat(down("2024-01-31||+1M")).isEqualTo(at("2024-02-29T00:00:00Z"));
        assertThat(down("2024-01-01T12:00:00Z||-12h")).isEqualTo(at("2024-01-01T00:00:00Z"));
    }

    @Test
    void plainDatesRoundUpTheMissingTimeOfDay() {
        assertThat(down("2024-01-01")).isEqualTo(at("2024-01-01T00:00:00Z"));
        assertThat(up("2024-01-01")).isEqualTo(at("2024-01-01T23:59:59.999Z"));
        // as Elasticsearch: missing fractions of a second are filled too
        assertThat(up("2024-01-01T10:00:00Z")).isEqualTo(at("2024-01-01T10:00:00.999Z"));
        assertThat(up("2024-01-01T10:00:00.250Z")).isEqualTo(at("2024-01-01T10:00:00.250Z"));
    }

    @Test
    void timeZoneAppliesToParsingAndRounding() {
        ZoneId paris = ZoneId.of("+01:00");
        assertThat(DateMath.parse("2024-01-01", DEFAULT, paris, false, () -> NOW))
                .isEqualTo(at("2023-12-31T23:00:00Z"));
        assertThat(DateMath.parse("now/d", DEFAULT, paris, false, () -> NOW))
                .isEqualTo(at("2024-03-14T23:00:00Z"));
    }

    @Test
    void customFormat() {
        DateFormat f = DateFormat.of("dd/MM/yyyy");
        assertThat(DateMath.parse("15/03/2024||+1d", f, null, false, () -> NOW)).isEqualTo(at("2024-03-16T00:00:00Z"));
    }

    @Test
    void badMathIsAParseError() {
        assertThatThrownBy(() -> down("now*1d")).isInstanceOf(GatewayException.class)
                .satisfies(e -> assertThat(((GatewayException) e).kind()).isEqualTo(ErrorKind.PARSE))
                .hasMessageContaining("operator not supported");
        assertThatThrownBy(() -> down("now+1")).hasMessageContaining("truncated date math");
        assertThatThrownBy(() -> down("now+1x")).hasMessageContaining("unit [x] not supported");
        assertThatThrownBy(() -> down("now/2d")).hasMessageContaining("single unit");
        assertThatThrownBy(() -> down("not a date")).isInstanceOf(GatewayException.class);
    }
}
