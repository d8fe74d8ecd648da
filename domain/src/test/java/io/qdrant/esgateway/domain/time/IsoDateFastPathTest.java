package io.qdrant.esgateway.domain.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link IsoDateFastPath} answers only where the formatters would, and with their instant. */
class IsoDateFastPathTest {
    private static final DateFormat DEFAULT = DateFormat.defaultFormat();
    private static final List<ZoneId> ZONES = List.of(ZoneOffset.UTC, ZoneId.of("Europe/Berlin"),
            ZoneId.of("America/New_York"), ZoneOffset.ofHoursMinutes(5, 30), ZoneId.of("Asia/Gaza"));

    @ParameterizedTest
    @ValueSource(strings = {"2015-01-01", "2024-02-29", "0000-01-01", "9999-12-31", "2015-01-01T12:10:30",
        "2015-01-01T00:00:00Z", "2015-01-01T23:59:59.5Z", "2015-01-01T12:10:30.123456789Z", "2015-03-29T02:30:00"})
    void answersTheCommonShapesAsTheFormattersDo(String text) {
        for (ZoneId zone : ZONES) {
            Instant fast = IsoDateFastPath.parse(text, zone);
            assertThat(fast).as("%s in %s", text, zone).isNotNull()
                    .isEqualTo(DEFAULT.parseWithFormattersOnly(text, zone, false));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"2015-02-29", "2015-13-01", "2015-00-10", "2015-01-32", "2015-01-01T24:00:00",
        "2015-01-01T12:60:00", "2015-01-01T12:10:60", "2015-01-01T12:10:30.", "2015-01-01T12:10:30.1234567890Z",
        "2015-01-01T12:10:30,25Z", "2015-01-01T12:10:30+01:00", "2015-01-01T12:10:30+0100", "2015-01-01T12",
        "2015-01", "2015", "12015-01-01", "2015-1-01", "2015-01-01 12:10:30", "2015-01-01T12:10:30z",
        "2015-01-01T12:10:30ZZ", "+2015-01-01", "1420070400000", "２０１５-01-01"})
    void leavesEveryOtherTextToTheFormatters(String text) {
        assertThat(IsoDateFastPath.parse(text, ZoneOffset.UTC)).as(text).isNull();
    }

    /** Random texts near the shapes (digits, separators and lengths mutated): never a different answer. */
    @Test
    void neverDisagreesWithTheFormattersOnGeneratedTexts() {
        Random random = new Random(20261130);
        String alphabet = "0123456789-T:.Z+,z ";
        int answered = 0;
        for (int i = 0; i < 40_000; i++) {
            StringBuilder text = new StringBuilder(shape(random));
            int mutations = random.nextInt(3);
            for (int m = 0; m < mutations && !text.isEmpty(); m++) {
                int at = random.nextInt(text.length());
                switch (random.nextInt(3)) {
                    case 0 -> text.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
                    case 1 -> text.deleteCharAt(at);
                    default -> text.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
                }
            }
            String s = text.toString();
            ZoneId zone = ZONES.get(random.nextInt(ZONES.size()));
            Instant fast = IsoDateFastPath.parse(s, zone);
            if (fast != null) {
                answered++;
                assertThat(fast).as("%s in %s", s, zone).isEqualTo(DEFAULT.parseWithFormattersOnly(s, zone, false));
            }
        }
        assertThat(answered).as("texts the fast path answered").isGreaterThan(10_000);
    }

    /** The public parse gives what the formatters give, with or without the fast path in between. */
    @Test
    void theFormatAnswersAsBefore() {
        for (String text : List.of("2015-01-01", "2015-01-01T12:10:30.5Z", "2015-01-01T12:10:30+01:00", "2015-01",
                "1420070400000")) {
            for (ZoneId zone : ZONES) {
                assertThat(DEFAULT.parse(text, zone, false)).as(text)
                        .isEqualTo(DEFAULT.parseWithFormattersOnly(text, zone, false));
            }
        }
    }

    private static String shape(Random r) {
        String date = "%04d-%02d-%02d".formatted(r.nextInt(10_000), r.nextInt(14), r.nextInt(33));
        return switch (r.nextInt(4)) {
            case 0 -> date;
            case 1 -> date + "T%02d:%02d:%02d".formatted(r.nextInt(25), r.nextInt(61), r.nextInt(61));
            case 2 -> date + "T%02d:%02d:%02d.%s".formatted(r.nextInt(25), r.nextInt(61), r.nextInt(61),
                    Long.toString(Math.abs(r.nextLong())).substring(0, 1 + r.nextInt(10))) + (r.nextBoolean() ? "Z" : "");
            default -> date + "T%02d:%02d:%02dZ".formatted(r.nextInt(24), r.nextInt(60), r.nextInt(60));
        };
    }
}
