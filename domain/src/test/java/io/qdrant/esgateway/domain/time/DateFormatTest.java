package io.qdrant.esgateway.domain.time;

import static io.qdrant.esgateway.domain.error.Failures.failure;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DateFormatTest {

    static long millis(String format, String text) {
        return DateFormat.of(format).parseMillis(text);
    }

    static long utc(String isoInstant) {
        return Instant.parse(isoInstant).toEpochMilli();
    }

    static void assertRejected(String format, String text) {
        GatewayException e = failure(() -> millis(format, text));
        assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
        assertThat(e.reason()).isEqualTo("failed to parse date field [" + text + "] with format [" + format + "]");
    }

    @Nested
    class TheDefaultFormat {
        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
            "2015-01-01                      | 2015-01-01T00:00:00Z",
            "2015-01                         | 2015-01-01T00:00:00Z",
            "2015                            | 2015-01-01T00:00:00Z",
            "2015-01-01T12                   | 2015-01-01T12:00:00Z",
            "2015-01-01T12:10                | 2015-01-01T12:10:00Z",
            "2015-01-01T12:10:30             | 2015-01-01T12:10:30Z",
            "2015-01-01T12:10:30Z            | 2015-01-01T12:10:30Z",
            "2015-01-01T12:10:30.5Z          | 2015-01-01T12:10:30.500Z",
            "2015-01-01T12:10:30.123456789Z  | 2015-01-01T12:10:30.123Z",
            "2015-01-01T12:10:30,25Z         | 2015-01-01T12:10:30.250Z",
            "2015-01-01T12:10:30+01:00       | 2015-01-01T11:10:30Z",
            "2015-01-01T12:10:30+0100        | 2015-01-01T11:10:30Z",
            "2015-01-01T12:10:30-05:30       | 2015-01-01T17:40:30Z",
            "2015-07-01T12:00:00Europe/Paris | 2015-07-01T10:00:00Z",
            "1420070400001                   | 2015-01-01T00:00:00.001Z",
            "0                               | 1970-01-01T00:00:00Z",
        })
        void parsesIsoDatesAndEpochMillis(String text, String expected) {
            assertThat(DateFormat.defaultFormat().parseMillis(text)).isEqualTo(utc(expected));
        }

        @ParameterizedTest
        @ValueSource(strings = {"2015-1-1", "2015-02-30", "2015-13-01", "15-01-01", "2015/01/01", "x", "2015-01-01 12:00",
            "1e3", "+5", "2015-01-01T25:00"})
        void rejectsAnythingElseWithElasticsearchsMessage(String text) {
            assertRejected(DateFormat.DEFAULT_PATTERN, text);
        }

        @Test
        void anEmptyTextIsItsOwnError() {
            GatewayException e = failure(() -> DateFormat.defaultFormat().parseMillis(""));
            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.reason()).isEqualTo("cannot parse empty datetime");
        }

        @Test
        void printsWithMillisAndZ() {
            assertThat(DateFormat.defaultFormat().format(utc("2015-01-01T12:10:30Z"))).isEqualTo(
                    "2015-01-01T12:10:30.000Z");
            assertThat(DateFormat.defaultFormat().format(Instant.parse("2015-01-01T12:10:30.5Z"),
                    ZoneId.of("+02:00"))).isEqualTo("2015-01-01T14:10:30.500+02:00");
            assertThat(DateFormat.defaultFormat().pattern()).isEqualTo("strict_date_optional_time||epoch_millis");
        }
    }

    @Nested
    class Epochs {
        @ParameterizedTest
        @CsvSource({
            "epoch_millis, 1420070400001, 1420070400001",
            "epoch_millis, -1, -1",
            "epoch_millis, 1.5, 1",
            "epoch_millis, -1.5, -2",
            "epoch_millis, 123., 123",
            "epoch_millis, 1.123456, 1",
            "epoch_second, 1420070400, 1420070400000",
            "epoch_second, 1.5, 1500",
            "epoch_second, -1.5, -1500",
            "epoch_second, 0.123456789, 123",
        })
        void acceptSignsAndFractions(String format, String text, long expected) {
            assertThat(millis(format, text)).isEqualTo(expected);
        }

        @ParameterizedTest
        @CsvSource({
            "epoch_millis, 1.1234567",
            "epoch_millis, 12345678901234567890",
            "epoch_millis, +5",
            "epoch_millis, 1e3",
            "epoch_millis, 2015-01-01",
            "epoch_second, 1.1234567891",
            "epoch_second, -",
        })
        void rejectOtherForms(String format, String text) {
            assertRejected(format, text);
        }

        @Test
        void printAsNumbers() {
            assertThat(DateFormat.of("epoch_millis").format(1420070400001L)).isEqualTo("1420070400001");
            assertThat(DateFormat.of("epoch_second").format(1500L)).isEqualTo("1.5");
            assertThat(DateFormat.of("epoch_second").format(-3000L)).isEqualTo("-3");
        }

        @Test
        void ignoreTheDefaultZone() {
            assertThat(DateFormat.of("epoch_millis").parse("1000", ZoneId.of("Europe/Paris"), false))
                    .isEqualTo(Instant.ofEpochMilli(1000));
        }
    }

    @Nested
    class BuiltIns {
        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
            "date_optional_time                      | 2015-1-5T3:4:5.6Z            | 2015-01-05T03:04:05.600Z",
            "date_optional_time                      | 2015-01-05                   | 2015-01-05T00:00:00Z",
            "strict_date_optional_time_nanos         | 2015-01-01T12:10:30.123456Z  | 2015-01-01T12:10:30.123Z",
            "iso8601                                 | 2015-01-01T12:10:30Z         | 2015-01-01T12:10:30Z",
            "strict_date                             | 2015-01-05                   | 2015-01-05T00:00:00Z",
            "date                                    | 2015-1-5                     | 2015-01-05T00:00:00Z",
            "strict_year_month_day                   | 2015-01-05                   | 2015-01-05T00:00:00Z",
            "year_month_day                          | 2015-1-5                     | 2015-01-05T00:00:00Z",
            "strict_year_month                       | 2015-03                      | 2015-03-01T00:00:00Z",
            "year_month                              | 2015-3                       | 2015-03-01T00:00:00Z",
            "strict_year                             | 2015                         | 2015-01-01T00:00:00Z",
            "year                                    | 2015                         | 2015-01-01T00:00:00Z",
            "strict_date_time                        | 2015-01-01T12:10:30Z         | 2015-01-01T12:10:30Z",
            "strict_date_time                        | 2015-01-01T12:10:30.123+0100 | 2015-01-01T11:10:30.123Z",
            "date_time                               | 2015-1-1T12:10:30.5Z         | 2015-01-01T12:10:30.500Z",
            "date_time                               | 2015-01-01T12:10+01:00       | 2015-01-01T11:10:00Z",
            "strict_date_time_no_millis              | 2015-01-01T12:10:30+01:00    | 2015-01-01T11:10:30Z",
            "date_time_no_millis                     | 2015-1-1T12:10:30            | 2015-01-01T12:10:30Z",
            "strict_date_hour                        | 2015-01-01T12                | 2015-01-01T12:00:00Z",
            "date_hour                               | 2015-1-1T2                   | 2015-01-01T02:00:00Z",
            "strict_date_hour_minute                 | 2015-01-01T12:10             | 2015-01-01T12:10:00Z",
            "date_hour_minute                        | 2015-1-1T2:3                 | 2015-01-01T02:03:00Z",
            "strict_date_hour_minute_second          | 2015-01-01T12:10:30          | 2015-01-01T12:10:30Z",
            "date_hour_minute_second                 | 2015-1-1T2:3:4               | 2015-01-01T02:03:04Z",
            "strict_date_hour_minute_second_millis   | 2015-01-01T12:10:30.123      | 2015-01-01T12:10:30.123Z",
            "strict_date_hour_minute_second_fraction | 2015-01-01T12:10:30.1        | 2015-01-01T12:10:30.100Z",
            "date_hour_minute_second_millis          | 2015-1-1T2:3:4.5             | 2015-01-01T02:03:04.500Z",
            "date_hour_minute_second_fraction        | 2015-1-1T2:3:4.000000001     | 2015-01-01T02:03:04Z",
            "basic_date                              | 20150105                     | 2015-01-05T00:00:00Z",
            "basic_date_time                         | 20150101T121030.123Z         | 2015-01-01T12:10:30.123Z",
            "basic_date_time_no_millis               | 20150101T121030+0100         | 2015-01-01T11:10:30Z",
            "basic_ordinal_date                      | 2015032                      | 2015-02-01T00:00:00Z",
            "strict_ordinal_date                     | 2015-032                     | 2015-02-01T00:00:00Z",
            "ordinal_date                            | 2015-32                      | 2015-02-01T00:00:00Z",
            "strict_ordinal_date_time_no_millis      | 2015-032T10:00:00Z           | 2015-02-01T10:00:00Z",
            "strict_hour                             | 10                           | 1970-01-01T10:00:00Z",
            "hour_minute                             | 10:5                         | 1970-01-01T10:05:00Z",
            "strict_hour_minute_second               | 10:05:07                     | 1970-01-01T10:05:07Z",
            "strict_time                             | 10:05:07.5Z                  | 1970-01-01T10:05:07.500Z",
            "strict_t_time                           | T10:05:07.5+01:00            | 1970-01-01T09:05:07.500Z",
            "t_time_no_millis                        | T1:5:7Z                      | 1970-01-01T01:05:07Z",
            "basic_time_no_millis                    | 100507Z                      | 1970-01-01T10:05:07Z",
        })
        void parseAsElasticsearchDefinesThem(String format, String text, String expected) {
            assertThat(millis(format, text)).isEqualTo(utc(expected));
        }

        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
            "strict_date                    | 2015-1-5",
            "strict_date_time               | 2015-01-01T12:10:30",
            "strict_date_time_no_millis     | 2015-01-01T12:10:30.5Z",
            "date_time                      | 2015-01-01T12:10:30Z",
            "strict_year                    | 15",
            "basic_date                     | 2015-01-05",
            "strict_date_hour_minute_second | 2015-01-01T12:10",
            "strict_hour_minute_second      | 1:05:07",
        })
        void rejectWhatTheirDefinitionExcludes(String format, String text) {
            assertRejected(format, text);
        }

        @Test
        void keepElasticsearchsResolverQuirks() {
            // strict_date resolves leniently and the ofPattern-based formats resolve smartly, as in Elasticsearch
            assertThat(millis("strict_date", "2015-02-30")).isEqualTo(utc("2015-03-02T00:00:00Z"));
            assertThat(millis("strict_date_hour_minute_second", "2015-02-30T12:10:30"))
                    .isEqualTo(utc("2015-02-28T12:10:30Z"));
        }

        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
            "strict_date_time           | 2015-01-01T12:10:30.000Z",
            "strict_date_time_no_millis | 2015-01-01T12:10:30Z",
            "date                       | 2015-01-01",
            "basic_date                 | 20150101",
            "date_hour_minute           | 2015-01-01T12:10",
            "hour_minute_second_millis  | 12:10:30.000",
        })
        void printWithTheirPrinter(String format, String expected) {
            assertThat(DateFormat.of(format).format(utc("2015-01-01T12:10:30Z"))).isEqualTo(expected);
        }
    }

    @Nested
    class Patterns {
        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
            "yyyy-MM-dd                   | 2015-01-05                | 2015-01-05T00:00:00Z",
            "dd.MM.yyyy                   | 31.12.2014                | 2014-12-31T00:00:00Z",
            "yyyy/MM/dd HH:mm:ss          | 2015/09/02 10:11:12       | 2015-09-02T10:11:12Z",
            "yyyy/MM/dd HH:mm:ss Z        | 2015/09/02 10:11:12 +0200 | 2015-09-02T08:11:12Z",
            "yyyy-MM-dd'T'HH:mm:ss.SSSXXX | 2015-01-01T10:00:00.100+02:00 | 2015-01-01T08:00:00.100Z",
            "yyyy                         | 2015                      | 2015-01-01T00:00:00Z",
            "yyyy-MM                      | 2015-03                   | 2015-03-01T00:00:00Z",
            "MM/dd                        | 03/04                     | 1970-03-04T00:00:00Z",
            "HH:mm                        | 10:30                     | 1970-01-01T10:30:00Z",
            "dd MMM yyyy                  | 05 Jan 2015               | 2015-01-05T00:00:00Z",
        })
        void useJavaTimeLettersWithTheRootLocaleAndMissingPartsAtTheirStart(String format, String text, String expected) {
            assertThat(millis(format, text)).isEqualTo(utc(expected));
        }

        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
            "yyyy-MM-dd | 2015-02-30",
            "yyyy-MM-dd | 2015-1-5",
            "yyyy-MM-dd | 2015-01-05T10:00",
            "dd         | 05",
        })
        void rejectTextsTheyDoNotDescribeAndImpossibleDates(String format, String text) {
            assertRejected(format, text);
        }

        @Test
        void printWithThePattern() {
            assertThat(DateFormat.of("dd.MM.yyyy HH:mm").format(utc("2015-01-05T10:30:00Z")))
                    .isEqualTo("05.01.2015 10:30");
        }
    }

    @Nested
    class Alternatives {
        @Test
        void areTriedInOrder() {
            DateFormat format = DateFormat.of("yyyy/MM/dd||dd.MM.yyyy||epoch_second");
            assertThat(format.parseMillis("2015/01/05")).isEqualTo(utc("2015-01-05T00:00:00Z"));
            assertThat(format.parseMillis("05.01.2015")).isEqualTo(utc("2015-01-05T00:00:00Z"));
            assertThat(format.parseMillis("1420416000")).isEqualTo(utc("2015-01-05T00:00:00Z"));
            assertThat(format.pattern()).isEqualTo("yyyy/MM/dd||dd.MM.yyyy||epoch_second");
            assertRejected("yyyy/MM/dd||dd.MM.yyyy||epoch_second", "2015-01-05");
        }

        @Test
        void printWithTheFirst() {
            assertThat(DateFormat.of("dd.MM.yyyy||epoch_millis").format(utc("2015-01-05T00:00:00Z")))
                    .isEqualTo("05.01.2015");
            assertThat(DateFormat.of("epoch_millis||dd.MM.yyyy").format(utc("2015-01-05T00:00:00Z")))
                    .isEqualTo("1420416000000");
        }

        @Test
        void areTrimmedOneByOne() {
            assertThat(DateFormat.of(" yyyy-MM-dd ").pattern()).isEqualTo("yyyy-MM-dd");
            assertThat(millis("yyyy-MM-dd || epoch_millis", "5")).isEqualTo(5);
        }
    }

    @Nested
    class Zones {
        @Test
        void aTextWithoutZoneIsReadInTheDefaultZone() {
            assertThat(DateFormat.of("yyyy-MM-dd HH:mm").parse("2015-07-01 12:00", ZoneId.of("Europe/Paris"), false))
                    .isEqualTo(Instant.parse("2015-07-01T10:00:00Z"));
        }

        @Test
        void aZoneInTheTextWins() {
            assertThat(DateFormat.defaultFormat().parse("2015-07-01T12:00:00Z", ZoneId.of("Europe/Paris"), false))
                    .isEqualTo(Instant.parse("2015-07-01T12:00:00Z"));
        }
    }

    @Nested
    class RoundingUp {
        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
            "strict_date_optional_time | 2020-01-05          | 2020-01-05T23:59:59.999999999Z",
            "strict_date_optional_time | 2020-01-05T10       | 2020-01-05T10:59:59.999999999Z",
            "strict_date_optional_time | 2020-01-05T10:20:30 | 2020-01-05T10:20:30.999999999Z",
            "strict_date_optional_time | 2020-03             | 2020-03-01T23:59:59.999999999Z",
            "yyyy                      | 2020                | 2020-01-01T23:59:59.999999999Z",
            "ordinal_date              | 2020-40             | 2020-02-09T23:59:59.999999999Z",
        })
        void fillsTheMissingTimeOfDayWithItsLastNanosecond(String format, String text, String expected) {
            assertThat(DateFormat.of(format).parse(text, ZoneOffset.UTC, true)).isEqualTo(Instant.parse(expected));
        }

        @Test
        void leavesAFullTextAsItIs() {
            assertThat(DateFormat.defaultFormat().parse("2020-01-05T10:20:30.5Z", ZoneOffset.UTC, true))
                    .isEqualTo(Instant.parse("2020-01-05T10:20:30.5Z"));
        }
    }

    @Nested
    class Acceptance {
        @Test
        void isSyntacticOnly() {
            // Elasticsearch's dynamic date detection asks only whether a parser accepts the text
            DateFormat slashes = DateFormat.of("yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis");
            assertThat(slashes.accepts("2015/09/02")).isTrue();
            assertThat(slashes.accepts("2015/02/30")).isTrue();
            assertThat(slashes.accepts("2015-09-02")).isFalse();
            assertThat(slashes.accepts("")).isFalse();
            assertRejected("yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis", "2015/02/30");
        }
    }

    @Nested
    class Validation {
        @ParameterizedTest
        @ValueSource(strings = {"strict_date_optional_time||epoch_millis", "date", "yyyy-MM-dd", "epoch_second",
            "yyyy-MM-dd HH:mm:ss||yyyy-MM-dd||epoch_millis", "dd.MM.yyyy"})
        void acceptsBuiltInsPatternsAndAlternatives(String format) {
            DateFormat.validate(format);
        }

        @ParameterizedTest
        @CsvSource(delimiter = ';', value = {
            "foo                      ; Invalid format: [foo]: Unknown pattern letter: f",
            "strict_date_foo          ; Invalid format: [strict_date_foo]: Unknown pattern letter: t",
            "strictDateOptionalTime   ; Invalid format: [strictDateOptionalTime]: Unknown pattern letter: t",
            "date||bar                ; Invalid format: [bar]: Unknown pattern letter: b",
            "yyyy-MM-dd||             ; Cannot have empty element in multi date format pattern: yyyy-MM-dd||",
            "||yyyy                   ; Cannot have empty element in multi date format pattern: ||yyyy",
        })
        void rejectsWhatElasticsearchRejectsWithItsMessage(String format, String message) {
            GatewayException e = failure(() -> DateFormat.validate(format));
            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.reason()).isEqualTo(message);
        }

        @ParameterizedTest
        @ValueSource(strings = {"", " "})
        void wantsAPattern(String format) {
            GatewayException e = failure(() -> DateFormat.validate(format));
            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.reason()).isEqualTo("No date pattern provided");
        }

        @Test
        void namesTheWeekBasedBuiltInsItDoesNotImplement() {
            GatewayException e = failure(() -> DateFormat.validate("date||week_date"));
            assertThat(e.kind()).isEqualTo(ErrorKind.UNSUPPORTED);
            assertThat(e.reason()).isEqualTo("the week-based date format [week_date] is not supported by the gateway");
        }
    }
}
