package io.qdrant.esgateway.domain.time;

import static java.time.temporal.ChronoField.DAY_OF_MONTH;
import static java.time.temporal.ChronoField.DAY_OF_YEAR;
import static java.time.temporal.ChronoField.HOUR_OF_DAY;
import static java.time.temporal.ChronoField.MINUTE_OF_HOUR;
import static java.time.temporal.ChronoField.MONTH_OF_YEAR;
import static java.time.temporal.ChronoField.NANO_OF_SECOND;
import static java.time.temporal.ChronoField.SECOND_OF_MINUTE;
import static java.time.temporal.ChronoField.YEAR;

import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.format.SignStyle;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Elasticsearch's built-in date format names ({@code strict_date_optional_time}, {@code date}, {@code basic_date}, …)
 * as java.time parsers and one printer each. The field widths, optional parts and zone forms follow the Elasticsearch
 * reference ("built-in formats"): {@code strict_} formats want zero-padded fields of fixed width, the lenient ones
 * accept 1–2 digit months, days and times and a 1–5 digit year. The week-based formats ({@code week_date},
 * {@code weekyear}, …) are known by name but not implemented.
 */
final class BuiltInFormats {

    /** A built-in format: the printer used for output and the parsers tried in order for input. */
    record Definition(DateTimeFormatter printer, List<DateTimeFormatter> parsers) {
    }

    /** Elasticsearch names the gateway recognises but does not implement. */
    static final Set<String> WEEK_BASED = Set.of("basic_week_date", "basic_week_date_time",
            "basic_week_date_time_no_millis", "strict_basic_week_date", "strict_basic_week_date_time",
            "strict_basic_week_date_time_no_millis", "week_date", "week_date_time", "week_date_time_no_millis",
            "strict_week_date", "strict_week_date_time", "strict_week_date_time_no_millis", "weekyear",
            "weekyear_week", "weekyear_week_day", "strict_weekyear", "strict_weekyear_week",
            "strict_weekyear_week_day");

    private static final Map<String, Definition> DEFINITIONS = new HashMap<>();

    private BuiltInFormats() {
    }

    static Optional<Definition> find(String name) {
        return Optional.ofNullable(DEFINITIONS.get(name));
    }

    // ---- building blocks --------------------------------------------------------------------------------------

    private static DateTimeFormatter build(Consumer<DateTimeFormatterBuilder> steps) {
        return build(ResolverStyle.STRICT, steps);
    }

    private static DateTimeFormatter build(ResolverStyle style, Consumer<DateTimeFormatterBuilder> steps) {
        DateTimeFormatterBuilder b = new DateTimeFormatterBuilder();
        steps.accept(b);
        return b.toFormatter(Locale.ROOT).withResolverStyle(style);
    }

    /** {@code ofPattern} as Elasticsearch uses it for some strict formats: the JDK's default (smart) resolver. */
    private static DateTimeFormatter pattern(String pattern) {
        return DateTimeFormatter.ofPattern(pattern, Locale.ROOT);
    }

    /** 4+ digit year, then optionally {@code -MM} and {@code -dd}: the date part of the strict ISO formats. */
    private static final DateTimeFormatter YMD_STRICT = build(b -> b
            .appendValue(YEAR, 4, 10, SignStyle.EXCEEDS_PAD)
            .optionalStart().appendLiteral('-').appendValue(MONTH_OF_YEAR, 2, 2, SignStyle.NOT_NEGATIVE)
            .optionalStart().appendLiteral('-').appendValue(DAY_OF_MONTH, 2, 2, SignStyle.NOT_NEGATIVE)
            .optionalEnd().optionalEnd());

    /** 1–5 digit year, then optionally {@code -M} and {@code -d} of one or two digits: the lenient date part. */
    private static final DateTimeFormatter YMD_LENIENT = build(b -> b
            .appendValue(YEAR, 1, 5, SignStyle.NORMAL)
            .optionalStart().appendLiteral('-').appendValue(MONTH_OF_YEAR, 1, 2, SignStyle.NOT_NEGATIVE)
            .optionalStart().appendLiteral('-').appendValue(DAY_OF_MONTH, 1, 2, SignStyle.NOT_NEGATIVE)
            .optionalEnd().optionalEnd());

    /** {@code yyyyMMdd} without separators. */
    private static final DateTimeFormatter YMD_BASIC = build(b -> b
            .appendValue(YEAR, 4, 4, SignStyle.NORMAL)
            .appendValue(MONTH_OF_YEAR, 2, 2, SignStyle.NOT_NEGATIVE)
            .appendValue(DAY_OF_MONTH, 2, 2, SignStyle.NOT_NEGATIVE));

    /** 4+ digit year and a day of year, {@code yyyy-DDD}. */
    private static final DateTimeFormatter ORDINAL_STRICT = build(b -> b
            .appendValue(YEAR, 4, 10, SignStyle.EXCEEDS_PAD).appendLiteral('-')
            .appendValue(DAY_OF_YEAR, 3, 3, SignStyle.NOT_NEGATIVE));

    private static final DateTimeFormatter ORDINAL_LENIENT = build(b -> b
            .appendValue(YEAR, 4, 10, SignStyle.EXCEEDS_PAD).appendLiteral('-')
            .appendValue(DAY_OF_YEAR, 1, 3, SignStyle.NOT_NEGATIVE));

    private static final DateTimeFormatter HMS_STRICT = build(b -> b
            .appendValue(HOUR_OF_DAY, 2, 2, SignStyle.NOT_NEGATIVE).appendLiteral(':')
            .appendValue(MINUTE_OF_HOUR, 2, 2, SignStyle.NOT_NEGATIVE).appendLiteral(':')
            .appendValue(SECOND_OF_MINUTE, 2, 2, SignStyle.NOT_NEGATIVE));

    private static final DateTimeFormatter HM_LENIENT = build(b -> b
            .appendValue(HOUR_OF_DAY, 1, 2, SignStyle.NOT_NEGATIVE).appendLiteral(':')
            .appendValue(MINUTE_OF_HOUR, 1, 2, SignStyle.NOT_NEGATIVE));

    private static final DateTimeFormatter HMS_LENIENT = build(b -> b
            .append(HM_LENIENT).appendLiteral(':').appendValue(SECOND_OF_MINUTE, 1, 2, SignStyle.NOT_NEGATIVE));

    private static final DateTimeFormatter HMS_BASIC = build(b -> b
            .appendValue(HOUR_OF_DAY, 2, 2, SignStyle.NOT_NEGATIVE)
            .appendValue(MINUTE_OF_HOUR, 2, 2, SignStyle.NOT_NEGATIVE)
            .appendValue(SECOND_OF_MINUTE, 2, 2, SignStyle.NOT_NEGATIVE));

    /** An offset without a colon, {@code +0100}, or {@code Z}. */
    private static final DateTimeFormatter OFFSET_NO_COLON = build(b -> b.appendOffset("+HHmm", "Z"));

    /** The output form of an offset: {@code +01:00}, or {@code Z} for UTC. */
    private static final DateTimeFormatter OFFSET_COLON = build(b -> b.appendOffset("+HH:MM", "Z"));

    /** {@code 2015-01-01T12:10:30.000Z}: how the ISO formats print. */
    private static final DateTimeFormatter ISO_PRINTER = build(b -> b
            .append(YMD_STRICT).appendLiteral('T').append(HMS_STRICT)
            .appendFraction(NANO_OF_SECOND, 3, 3, true).append(OFFSET_COLON));

    private static void define(String name, DateTimeFormatter printer, DateTimeFormatter... parsers) {
        DEFINITIONS.put(name, new Definition(printer, parsers.length == 0 ? List.of(printer) : List.of(parsers)));
    }

    /** The same time part followed by each of the three zone forms Elasticsearch accepts after a full time. */
    private static DateTimeFormatter[] withZones(DateTimeFormatter base, boolean zoneOptional) {
        if (zoneOptional) {
            return new DateTimeFormatter[] {
                build(b -> b.append(base).append(OFFSET_COLON)),
                build(b -> b.append(base).append(OFFSET_NO_COLON)),
                build(b -> b.append(base).optionalStart().appendZoneOrOffsetId().optionalEnd()),
                build(b -> b.append(base).optionalStart().append(OFFSET_NO_COLON).optionalEnd())};
        }
        return new DateTimeFormatter[] {
            build(b -> b.append(base).appendZoneOrOffsetId()),
            build(b -> b.append(base).append(OFFSET_NO_COLON))};
    }

    static {
        // ---- ISO 8601 with optional time ----
        DateTimeFormatter isoOptionalTime = build(b -> b
                .append(YMD_STRICT)
                .optionalStart().appendLiteral('T')
                .optionalStart().appendValue(HOUR_OF_DAY, 2, 2, SignStyle.NOT_NEGATIVE)
                .optionalStart().appendLiteral(':').appendValue(MINUTE_OF_HOUR, 2, 2, SignStyle.NOT_NEGATIVE)
                .optionalStart().appendLiteral(':').appendValue(SECOND_OF_MINUTE, 2, 2, SignStyle.NOT_NEGATIVE)
                .optionalStart().appendFraction(NANO_OF_SECOND, 1, 9, true).optionalEnd()
                .optionalStart().appendLiteral(',').appendFraction(NANO_OF_SECOND, 1, 9, false).optionalEnd()
                .optionalEnd().optionalEnd().optionalEnd()
                .optionalStart().appendZoneOrOffsetId().optionalEnd()
                .optionalStart().append(OFFSET_NO_COLON).optionalEnd()
                .optionalEnd());
        define("strict_date_optional_time", ISO_PRINTER, isoOptionalTime);
        define("iso8601", ISO_PRINTER, isoOptionalTime);
        define("strict_date_optional_time_nanos",
                build(b -> b.append(YMD_STRICT).appendLiteral('T').append(HMS_STRICT)
                        .appendFraction(NANO_OF_SECOND, 3, 9, true).append(OFFSET_COLON)),
                build(b -> b.append(YMD_STRICT)
                        .optionalStart().appendLiteral('T').append(HMS_STRICT)
                        .optionalStart().appendFraction(NANO_OF_SECOND, 3, 9, true).optionalEnd()
                        .optionalStart().appendLiteral(',').appendFraction(NANO_OF_SECOND, 3, 9, false).optionalEnd()
                        .optionalStart().appendZoneOrOffsetId().optionalEnd()
                        .optionalStart().append(OFFSET_NO_COLON).optionalEnd()
                        .optionalEnd()));
        define("date_optional_time", ISO_PRINTER, build(b -> b
                .append(YMD_LENIENT)
                .optionalStart().appendLiteral('T')
                .optionalStart().appendValue(HOUR_OF_DAY, 1, 2, SignStyle.NOT_NEGATIVE)
                .optionalStart().appendLiteral(':').appendValue(MINUTE_OF_HOUR, 1, 2, SignStyle.NOT_NEGATIVE)
                .optionalStart().appendLiteral(':').appendValue(SECOND_OF_MINUTE, 1, 2, SignStyle.NOT_NEGATIVE)
                .optionalEnd()
                .optionalStart().appendFraction(NANO_OF_SECOND, 1, 9, true).optionalEnd()
                .optionalStart().appendLiteral(',').appendFraction(NANO_OF_SECOND, 1, 9, false).optionalEnd()
                .optionalStart().appendZoneOrOffsetId().optionalEnd()
                .optionalStart().append(OFFSET_NO_COLON).optionalEnd()
                .optionalEnd().optionalEnd().optionalEnd()));

        // ---- dates ----
        define("strict_date", DateTimeFormatter.ISO_LOCAL_DATE.withResolverStyle(ResolverStyle.LENIENT)
                .withLocale(Locale.ROOT));
        define("date", DateTimeFormatter.ISO_LOCAL_DATE.withResolverStyle(ResolverStyle.STRICT)
                .withLocale(Locale.ROOT), YMD_LENIENT);
        define("strict_year_month_day", YMD_STRICT);
        define("year_month_day", YMD_STRICT, build(b -> b
                .appendValue(YEAR).appendLiteral('-').appendValue(MONTH_OF_YEAR).appendLiteral('-')
                .appendValue(DAY_OF_MONTH)));
        DateTimeFormatter strictYearMonth = build(b -> b
                .appendValue(YEAR, 4, 10, SignStyle.EXCEEDS_PAD).appendLiteral('-')
                .appendValue(MONTH_OF_YEAR, 2, 2, SignStyle.NOT_NEGATIVE));
        define("strict_year_month", strictYearMonth);
        define("year_month", strictYearMonth,
                build(b -> b.appendValue(YEAR).appendLiteral('-').appendValue(MONTH_OF_YEAR)));
        define("strict_year", build(b -> b.appendValue(YEAR, 4, 10, SignStyle.EXCEEDS_PAD)));
        define("year", build(b -> b.appendValue(YEAR)));
        define("basic_date", YMD_BASIC, build(b -> b
                .appendValue(YEAR, 1, 4, SignStyle.NORMAL)
                .appendValue(MONTH_OF_YEAR, 1, 2, SignStyle.NOT_NEGATIVE)
                .appendValue(DAY_OF_MONTH, 1, 2, SignStyle.NOT_NEGATIVE)));
        define("strict_ordinal_date", ORDINAL_STRICT);
        define("ordinal_date", ORDINAL_STRICT, ORDINAL_LENIENT);
        define("basic_ordinal_date", pattern("uuuuDDD"));

        // ---- date and time ----
        DateTimeFormatter strictDateTimeBase = build(b -> b
                .append(YMD_STRICT).appendLiteral('T').append(HMS_STRICT)
                .optionalStart().appendFraction(NANO_OF_SECOND, 1, 9, true).optionalEnd());
        define("strict_date_time",
                build(b -> b.append(YMD_STRICT).appendLiteral('T').append(HMS_STRICT)
                        .appendFraction(NANO_OF_SECOND, 3, 9, true).append(OFFSET_COLON)),
                withZones(strictDateTimeBase, false));
        DateTimeFormatter lenientDateTimeBase = build(b -> b
                .append(YMD_LENIENT).appendLiteral('T').append(HM_LENIENT)
                .optionalStart().appendLiteral(':').appendValue(SECOND_OF_MINUTE, 1, 2, SignStyle.NOT_NEGATIVE)
                .appendFraction(NANO_OF_SECOND, 1, 9, true).optionalEnd());
        define("date_time", ISO_PRINTER,
                build(b -> b.append(lenientDateTimeBase).append(OFFSET_COLON)),
                build(b -> b.append(lenientDateTimeBase).append(OFFSET_NO_COLON)));
        DateTimeFormatter strictNoMillisBase = build(b -> b.append(YMD_STRICT).appendLiteral('T').append(HMS_STRICT));
        define("strict_date_time_no_millis", build(b -> b.append(strictNoMillisBase).append(OFFSET_COLON)),
                withZones(strictNoMillisBase, false));
        DateTimeFormatter lenientNoMillisBase = build(b -> b
                .append(YMD_LENIENT).appendLiteral('T').append(HM_LENIENT)
                .optionalStart().appendLiteral(':').appendValue(SECOND_OF_MINUTE, 1, 2, SignStyle.NOT_NEGATIVE)
                .optionalEnd());
        define("date_time_no_millis", build(b -> b.append(strictNoMillisBase).append(OFFSET_COLON)),
                withZones(lenientNoMillisBase, true));

        define("strict_date_hour", pattern("uuuu-MM-dd'T'HH"));
        define("date_hour", pattern("uuuu-MM-dd'T'HH"), build(b -> b
                .append(YMD_LENIENT).appendLiteral('T').appendValue(HOUR_OF_DAY, 1, 2, SignStyle.NOT_NEGATIVE)));
        define("strict_date_hour_minute", pattern("uuuu-MM-dd'T'HH:mm"));
        define("date_hour_minute", pattern("uuuu-MM-dd'T'HH:mm"),
                build(b -> b.append(YMD_LENIENT).appendLiteral('T').append(HM_LENIENT)));
        define("strict_date_hour_minute_second", pattern("uuuu-MM-dd'T'HH:mm:ss"));
        define("date_hour_minute_second", pattern("uuuu-MM-dd'T'HH:mm:ss"),
                build(b -> b.append(YMD_LENIENT).appendLiteral('T').append(HMS_LENIENT)));
        DateTimeFormatter millisPrinter = build(b -> b
                .append(YMD_STRICT).appendLiteral('T').append(HMS_STRICT).appendFraction(NANO_OF_SECOND, 3, 3, true));
        DateTimeFormatter strictFraction = build(b -> b
                .append(YMD_STRICT).appendLiteral('T').append(HMS_STRICT).appendFraction(NANO_OF_SECOND, 1, 9, true));
        define("strict_date_hour_minute_second_millis", millisPrinter, strictFraction);
        define("strict_date_hour_minute_second_fraction", millisPrinter, strictFraction);
        define("date_hour_minute_second_millis", millisPrinter, build(b -> b
                .append(YMD_LENIENT).appendLiteral('T').append(HMS_LENIENT)
                .appendFraction(NANO_OF_SECOND, 1, 3, true)));
        define("date_hour_minute_second_fraction", millisPrinter, build(b -> b
                .append(YMD_LENIENT).appendLiteral('T').append(HMS_LENIENT)
                .appendFraction(NANO_OF_SECOND, 1, 9, true)));

        define("basic_date_time",
                build(b -> b.append(YMD_BASIC).appendLiteral('T').append(HMS_BASIC)
                        .appendFraction(NANO_OF_SECOND, 3, 3, true).append(OFFSET_COLON)),
                withZones(build(b -> b.append(YMD_BASIC).appendLiteral('T').append(HMS_BASIC)
                        .appendFraction(NANO_OF_SECOND, 1, 9, true)), false));
        DateTimeFormatter basicNoMillisBase = build(b -> b.append(YMD_BASIC).appendLiteral('T').append(HMS_BASIC));
        define("basic_date_time_no_millis", build(b -> b.append(basicNoMillisBase).append(OFFSET_COLON)),
                withZones(basicNoMillisBase, false));

        DateTimeFormatter ordinalTimePrinter = build(b -> b.append(ORDINAL_STRICT).appendLiteral('T')
                .append(HMS_STRICT).appendFraction(NANO_OF_SECOND, 3, 3, true).append(OFFSET_COLON));
        define("strict_ordinal_date_time", ordinalTimePrinter, withZones(build(b -> b
                .append(ORDINAL_STRICT).appendLiteral('T')
                .appendValue(HOUR_OF_DAY, 2, 2, SignStyle.NOT_NEGATIVE).appendLiteral(':')
                .appendValue(MINUTE_OF_HOUR, 2, 2, SignStyle.NOT_NEGATIVE)
                .optionalStart().appendLiteral(':').appendValue(SECOND_OF_MINUTE, 2, 2, SignStyle.NOT_NEGATIVE)
                .appendFraction(NANO_OF_SECOND, 1, 9, true).optionalEnd()), false));
        define("ordinal_date_time", ordinalTimePrinter, withZones(build(b -> b
                .append(ORDINAL_LENIENT).appendLiteral('T').append(HM_LENIENT)
                .optionalStart().appendLiteral(':').appendValue(SECOND_OF_MINUTE, 1, 2, SignStyle.NOT_NEGATIVE)
                .appendFraction(NANO_OF_SECOND, 1, 9, true).optionalEnd()), false));
        DateTimeFormatter ordinalNoMillisPrinter = build(b -> b.append(ORDINAL_STRICT).appendLiteral('T')
                .append(HMS_STRICT).append(OFFSET_COLON));
        define("strict_ordinal_date_time_no_millis", ordinalNoMillisPrinter,
                withZones(build(b -> b.append(ORDINAL_STRICT).appendLiteral('T').append(HMS_STRICT)), false));
        define("ordinal_date_time_no_millis", ordinalNoMillisPrinter,
                withZones(build(b -> b.append(ORDINAL_LENIENT).appendLiteral('T').append(HMS_LENIENT)), false));
        DateTimeFormatter basicOrdinal = pattern("uuuuDDD");
        define("basic_ordinal_date_time",
                build(b -> b.append(basicOrdinal).appendLiteral('T').append(HMS_BASIC)
                        .appendFraction(NANO_OF_SECOND, 3, 3, true).append(OFFSET_COLON)),
                withZones(build(b -> b.append(basicOrdinal).appendLiteral('T').append(HMS_BASIC)
                        .appendFraction(NANO_OF_SECOND, 1, 9, true)), false));
        define("basic_ordinal_date_time_no_millis",
                build(b -> b.append(basicOrdinal).appendLiteral('T').append(HMS_BASIC).append(OFFSET_COLON)),
                withZones(build(b -> b.append(basicOrdinal).appendLiteral('T').append(HMS_BASIC)), false));

        // ---- times of day (the date defaults to 1970-01-01) ----
        define("strict_hour", pattern("HH"));
        define("hour", pattern("HH"), build(b -> b.appendValue(HOUR_OF_DAY, 1, 2, SignStyle.NOT_NEGATIVE)));
        define("strict_hour_minute", pattern("HH:mm"));
        define("hour_minute", pattern("HH:mm"), HM_LENIENT);
        define("strict_hour_minute_second", HMS_STRICT);
        define("hour_minute_second", HMS_STRICT, HMS_LENIENT);
        DateTimeFormatter hmsMillisPrinter = build(b -> b.append(HMS_STRICT)
                .appendFraction(NANO_OF_SECOND, 3, 3, true));
        DateTimeFormatter hmsFractionStrict = build(b -> b.append(HMS_STRICT)
                .appendFraction(NANO_OF_SECOND, 1, 9, true));
        define("strict_hour_minute_second_millis", hmsMillisPrinter, hmsFractionStrict);
        define("strict_hour_minute_second_fraction", hmsMillisPrinter, hmsFractionStrict);
        define("hour_minute_second_millis", hmsMillisPrinter,
                build(b -> b.append(HMS_LENIENT).appendFraction(NANO_OF_SECOND, 1, 3, true)));
        define("hour_minute_second_fraction", hmsMillisPrinter,
                build(b -> b.append(HMS_LENIENT).appendFraction(NANO_OF_SECOND, 1, 9, true)));
        for (String prefix : new String[] {"", "t_"}) {
            boolean t = !prefix.isEmpty();
            DateTimeFormatter timePrinter = build(b -> {
                if (t) {
                    b.appendLiteral('T');
                }
                b.append(hmsMillisPrinter).append(OFFSET_COLON);
            });
            DateTimeFormatter noMillisPrinter = build(b -> {
                if (t) {
                    b.appendLiteral('T');
                }
                b.append(HMS_STRICT).append(OFFSET_COLON);
            });
            define("strict_" + prefix + "time", timePrinter, withZones(build(b -> {
                if (t) {
                    b.appendLiteral('T');
                }
                b.append(hmsFractionStrict);
            }), false));
            define(prefix + "time", timePrinter, withZones(build(b -> {
                if (t) {
                    b.appendLiteral('T');
                }
                b.append(HMS_LENIENT).appendFraction(NANO_OF_SECOND, 1, 9, true);
            }), false));
            define("strict_" + prefix + "time_no_millis", noMillisPrinter, withZones(build(b -> {
                if (t) {
                    b.appendLiteral('T');
                }
                b.append(HMS_STRICT);
            }), false));
            define(prefix + "time_no_millis", noMillisPrinter, withZones(build(b -> {
                if (t) {
                    b.appendLiteral('T');
                }
                b.append(HMS_LENIENT);
            }), false));
            define("basic_" + prefix + "time",
                    build(b -> {
                        if (t) {
                            b.appendLiteral('T');
                        }
                        b.append(HMS_BASIC).appendFraction(NANO_OF_SECOND, 3, 3, true).append(OFFSET_COLON);
                    }),
                    withZones(build(b -> {
                        if (t) {
                            b.appendLiteral('T');
                        }
                        b.append(HMS_BASIC).appendFraction(NANO_OF_SECOND, 1, 9, true);
                    }), false));
            define("basic_" + prefix + "time_no_millis",
                    build(b -> {
                        if (t) {
                            b.appendLiteral('T');
                        }
                        b.append(HMS_BASIC).append(OFFSET_COLON);
                    }),
                    withZones(build(b -> {
                        if (t) {
                            b.appendLiteral('T');
                        }
                        b.append(HMS_BASIC);
                    }), false));
        }
    }
}
