package io.qdrant.esgateway.domain.aggregation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class DateRoundingTest {
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static long at(String iso) {
        return Instant.parse(iso).toEpochMilli();
    }

    @Test
    void calendarDaysStartAtLocalMidnightAcrossDaylightSavingChanges() {
        DateRounding day = DateRounding.calendar("1d", BERLIN, 0);
        // 2024-03-31 03:30 CEST: the day started at 00:00 CET
        assertThat(day.round(at("2024-03-31T01:30:00Z"))).isEqualTo(at("2024-03-30T23:00:00Z"));
        // that day lasts 23 hours
        assertThat(day.next(at("2024-03-30T23:00:00Z"))).isEqualTo(at("2024-03-31T22:00:00Z"));
        // 2024-10-27 lasts 25 hours
        assertThat(day.next(at("2024-10-26T22:00:00Z"))).isEqualTo(at("2024-10-27T23:00:00Z"));
    }

    @Test
    void calendarHoursKeepTheRepeatedHourApart() {
        DateRounding hour = DateRounding.calendar("hour", BERLIN, 0);
        assertThat(hour.round(at("2024-10-27T00:30:00Z"))).isEqualTo(at("2024-10-27T00:00:00Z"));
        assertThat(hour.round(at("2024-10-27T01:30:00Z"))).isEqualTo(at("2024-10-27T01:00:00Z"));
        assertThat(hour.next(at("2024-10-27T00:00:00Z"))).isEqualTo(at("2024-10-27T01:00:00Z"));
    }

    @Test
    void weeksMonthsQuartersAndYears() {
        long t = at("2024-05-15T10:00:00Z");
        assertThat(DateRounding.calendar("week", ZoneOffset.UTC, 0).round(t)).isEqualTo(at("2024-05-13T00:00:00Z"));
        assertThat(DateRounding.calendar("1M", ZoneOffset.UTC, 0).round(t)).isEqualTo(at("2024-05-01T00:00:00Z"));
        assertThat(DateRounding.calendar("quarter", ZoneOffset.UTC, 0).round(t))
                .isEqualTo(at("2024-04-01T00:00:00Z"));
        assertThat(DateRounding.calendar("quarter", ZoneOffset.UTC, 0).next(at("2024-04-01T00:00:00Z")))
                .isEqualTo(at("2024-07-01T00:00:00Z"));
        assertThat(DateRounding.calendar("1y", ZoneId.of("Asia/Tokyo"), 0).round(at("2023-12-31T16:00:00Z")))
                .isEqualTo(at("2023-12-31T15:00:00Z"));
    }

    @Test
    void fixedIntervalsCountFromTheEpochInLocalTime() {
        DateRounding ninety = DateRounding.fixed("90m", ZoneOffset.UTC, 0);
        assertThat(ninety.round(at("2024-03-31T01:30:00Z"))).isEqualTo(at("2024-03-31T01:30:00Z"));
        assertThat(ninety.round(at("2024-03-31T01:29:59Z"))).isEqualTo(at("2024-03-31T00:00:00Z"));
        DateRounding twoHours = DateRounding.fixed("2h", ZoneOffset.ofHours(1), 0);
        assertThat(twoHours.round(at("2024-01-01T00:30:00Z"))).isEqualTo(at("2023-12-31T23:00:00Z"));
        assertThat(twoHours.next(at("2023-12-31T23:00:00Z"))).isEqualTo(at("2024-01-01T01:00:00Z"));
    }

    @Test
    void offsetsShiftBucketStarts() {
        DateRounding day = DateRounding.calendar("day", ZoneOffset.UTC, 6 * 3_600_000L);
        assertThat(day.round(at("2024-01-02T05:00:00Z"))).isEqualTo(at("2024-01-01T06:00:00Z"));
        assertThat(day.round(at("2024-01-02T06:00:00Z"))).isEqualTo(at("2024-01-02T06:00:00Z"));
        assertThat(day.next(at("2024-01-02T06:00:00Z"))).isEqualTo(at("2024-01-03T06:00:00Z"));
    }

    @Test
    void badIntervalsAreRefused() {
        assertThatThrownBy(() -> DateRounding.calendar("2d", ZoneOffset.UTC, 0)).isInstanceOf(GatewayException.class)
                .hasMessage("The supplied interval [2d] could not be parsed as a calendar interval.");
        assertThatThrownBy(() -> DateRounding.fixed("1M", ZoneOffset.UTC, 0))
                .satisfies(e -> assertThat(((GatewayException) e).kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT))
                .hasMessageContaining("unit is missing or unrecognized");
        assertThat(TimeValues.millis("500ms", "x")).isEqualTo(500);
        assertThat(TimeValues.millis("2d", "x")).isEqualTo(172_800_000L);
    }
}
