package io.qdrant.esgateway.domain.time;

import io.qdrant.esgateway.domain.error.GatewayException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalQueries;
import java.text.ParsePosition;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An Elasticsearch date {@code format}: one or more {@code ||}-separated alternatives, each a built-in name
 * ({@code strict_date_optional_time}, {@code epoch_millis}, {@code basic_date}, …) or a java.time pattern
 * ({@code yyyy-MM-dd}, {@code dd.MM.yyyy HH:mm Z}) read with the ROOT locale and the strict resolver, as Elasticsearch
 * reads them. Input is tried against each alternative in order and must be consumed completely.
 *
 * <p>Parsed values become instants as Elasticsearch converts them: a zone or offset in the text wins, otherwise the
 * given default zone (UTC for indexing); missing parts default to the start (January, the 1st, midnight) or, when
 * rounding up for range bounds, to the end of the time of day (23:59:59.999999999; month and day still default to 1,
 * as in Elasticsearch). A {@code yyyy} pattern (year of era) is taken as the proleptic year. {@code epoch_millis} and
 * {@code epoch_second} accept an optional minus sign, up to 19 digits and a fraction (6 digits for millis, 9 for
 * seconds), never a zone.
 *
 * <p>Output uses the first alternative's printer (for {@code strict_date_optional_time}
 * {@code 2015-01-01T12:10:30.000Z}).
 *
 * <p>The week-based built-ins ({@code week_date}, {@code weekyear}, …) are recognised and rejected as unsupported.
 */
public final class DateFormat {
    /** The format of a {@code date} field that does not set one. */
    public static final String DEFAULT_PATTERN = "strict_date_optional_time||epoch_millis";

    private static final int CACHE_LIMIT = 1_000;
    private static final Map<String, DateFormat> CACHE = new ConcurrentHashMap<>();

    private final String pattern;
    private final List<Alternative> alternatives;

    private DateFormat(String pattern, List<Alternative> alternatives) {
        this.pattern = pattern;
        this.alternatives = List.copyOf(alternatives);
    }

    /**
     * The format for an Elasticsearch {@code format} string.
     *
     * @throws GatewayException {@code ILLEGAL_ARGUMENT} with Elasticsearch's wording ({@code No date pattern
     *     provided}, {@code Invalid format: [foo]: Unknown pattern letter: f}, {@code Cannot have empty element in
     *     multi date format pattern: a||}); {@code UNSUPPORTED} for a week-based built-in
     */
    public static DateFormat of(String esFormat) {
        if (esFormat == null) {
            throw GatewayException.illegalArgument("No date pattern provided");
        }
        DateFormat cached = CACHE.get(esFormat);
        if (cached != null) {
            return cached;
        }
        DateFormat built = build(esFormat);
        if (CACHE.size() < CACHE_LIMIT) {
            CACHE.put(esFormat, built);
        }
        return built;
    }

    /** {@code strict_date_optional_time||epoch_millis}. */
    public static DateFormat defaultFormat() {
        return of(DEFAULT_PATTERN);
    }

    /**
     * Checks a mapping's {@code format} without keeping the result.
     *
     * @throws GatewayException as {@link #of(String)}
     */
    public static void validate(String esFormat) {
        of(esFormat);
    }

    private static DateFormat build(String input) {
        if (input.isEmpty()) {
            throw GatewayException.illegalArgument("No date pattern provided");
        }
        List<String> parts = splitAlternatives(input);
        List<Alternative> alternatives = new ArrayList<>();
        for (String part : parts) {
            alternatives.add(alternative(part));
        }
        String name = parts.size() == 1 ? parts.getFirst().trim() : input;
        return new DateFormat(name, alternatives);
    }

    private static List<String> splitAlternatives(String input) {
        List<String> parts = new ArrayList<>();
        int from = 0;
        while (true) {
            int bar = input.indexOf("||", from);
            String part = bar < 0 ? input.substring(from) : input.substring(from, bar);
            if (part.isEmpty()) {
                throw GatewayException.illegalArgument("Cannot have empty element in multi date format pattern: "
                        + input);
            }
            parts.add(part);
            if (bar < 0) {
                return parts;
            }
            from = bar + 2;
        }
    }

    private static Alternative alternative(String raw) {
        String name = raw.trim();
        if (name.isEmpty()) {
            throw GatewayException.illegalArgument("No date pattern provided");
        }
        switch (name) {
            case "epoch_millis" -> {
                return new Epoch(false);
            }
            case "epoch_second" -> {
                return new Epoch(true);
            }
            default -> {
            }
        }
        if (BuiltInFormats.WEEK_BASED.contains(name)) {
            throw GatewayException.unsupported("the week-based date format [" + name + "]");
        }
        var builtIn = BuiltInFormats.find(name);
        if (builtIn.isPresent()) {
            boolean iso = name.equals("strict_date_optional_time") || name.equals("iso8601");
            return new JavaTime(builtIn.get().printer(), builtIn.get().parsers(), iso);
        }
        DateTimeFormatter custom;
        try {
            custom = new DateTimeFormatterBuilder().appendPattern(name).toFormatter(Locale.ROOT)
                    .withResolverStyle(ResolverStyle.STRICT);
        } catch (IllegalArgumentException e) {
            throw GatewayException.illegalArgument("Invalid format: [" + name + "]: " + e.getMessage());
        }
        return new JavaTime(custom, List.of(custom), false);
    }

    /** The format as Elasticsearch names it in messages and mappings. */
    public String pattern() {
        return pattern;
    }

    /**
     * Parses a date field value to epoch milliseconds, in UTC unless the text carries a zone.
     *
     * @throws GatewayException {@code ILLEGAL_ARGUMENT} "failed to parse date field [x] with format [f]" (or
     *     "cannot parse empty datetime")
     */
    public long parseMillis(String text) {
        Instant instant = parse(text, ZoneOffset.UTC, false);
        try {
            return instant.toEpochMilli();
        } catch (ArithmeticException e) {
            throw failure(text);
        }
    }

    /**
     * Parses {@code text} to an instant.
     *
     * @param defaultZone the zone of a text without one (a range query's {@code time_zone}, else UTC)
     * @param roundUp fill a missing time of day with its last nanosecond (for {@code gt} and {@code lte} bounds)
     * @throws GatewayException as {@link #parseMillis(String)}
     */
    public Instant parse(String text, ZoneId defaultZone, boolean roundUp) {
        if (text == null || text.isEmpty()) {
            throw GatewayException.illegalArgument("cannot parse empty datetime");
        }
        for (Alternative alternative : alternatives) {
            Instant instant = alternative.parse(text, defaultZone, roundUp);
            if (instant != null) {
                return instant;
            }
        }
        throw failure(text);
    }

    /**
     * As {@link #parse} without {@link IsoDateFastPath}: the instant the formatters alone give, or {@code null} when no
     * alternative accepts the text (tests compare the two).
     */
    Instant parseWithFormattersOnly(String text, ZoneId defaultZone, boolean roundUp) {
        for (Alternative alternative : alternatives) {
            Instant instant = alternative instanceof JavaTime javaTime
                    ? javaTime.parseWithFormatters(text, defaultZone, roundUp)
                    : alternative.parse(text, defaultZone, roundUp);
            if (instant != null) {
                return instant;
            }
        }
        return null;
    }

    /**
     * Whether one of the alternatives accepts {@code text} syntactically, as Elasticsearch's dynamic date detection
     * asks. Calendar checks that Elasticsearch only makes while converting (a {@code yyyy/MM/dd} text naming
     * February 30) are not made here, so {@link #parseMillis(String)} may still reject an accepted text.
     */
    public boolean accepts(String text) {
        if (text == null || text.isEmpty()) {
            return false;
        }
        for (Alternative alternative : alternatives) {
            if (alternative.accepts(text)) {
                return true;
            }
        }
        return false;
    }

    /** Formats epoch milliseconds in UTC with the first alternative's printer. */
    public String format(long epochMillis) {
        return format(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC);
    }

    /** Formats an instant in {@code zone} with the first alternative's printer. */
    public String format(Instant instant, ZoneId zone) {
        return alternatives.getFirst().format(instant, zone);
    }

    private GatewayException failure(String text) {
        return GatewayException.illegalArgument("failed to parse date field [" + text + "] with format [" + pattern
                + "]");
    }

    @Override
    public String toString() {
        return "DateFormat[" + pattern + "]";
    }

    private sealed interface Alternative permits JavaTime, Epoch {
        /** The instant, or {@code null} when this alternative does not accept the text. */
        Instant parse(String text, ZoneId defaultZone, boolean roundUp);

        boolean accepts(String text);

        String format(Instant instant, ZoneId zone);
    }

    /** A java.time based alternative: a built-in or a pattern. */
    private static final class JavaTime implements Alternative {
        private final DateTimeFormatter printer;
        private final List<DateTimeFormatter> parsers;
        /** {@code strict_date_optional_time}: its common shapes are read by {@link IsoDateFastPath} first. */
        private final boolean isoFastPath;
        private volatile List<DateTimeFormatter> roundUpParsers;

        JavaTime(DateTimeFormatter printer, List<DateTimeFormatter> parsers, boolean isoFastPath) {
            this.printer = printer;
            this.parsers = parsers;
            this.isoFastPath = isoFastPath;
        }

        @Override
        public Instant parse(String text, ZoneId defaultZone, boolean roundUp) {
            if (isoFastPath && !roundUp) {
                Instant fast = IsoDateFastPath.parse(text, defaultZone);
                if (fast != null) {
                    return fast;
                }
            }
            return parseWithFormatters(text, defaultZone, roundUp);
        }

        /** The instant as the formatters read it (without {@link IsoDateFastPath}), or {@code null}. */
        Instant parseWithFormatters(String text, ZoneId defaultZone, boolean roundUp) {
            for (DateTimeFormatter parser : roundUp ? roundUpParsers() : parsers) {
                TemporalAccessor parsed = parseWhole(parser, text);
                if (parsed != null) {
                    try {
                        return toInstant(parsed, defaultZone);
                    } catch (DateTimeException | ArithmeticException e) {
                        return null;
                    }
                }
            }
            return null;
        }

        @Override
        public boolean accepts(String text) {
            for (DateTimeFormatter parser : parsers) {
                if (parseWhole(parser, text) != null) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public String format(Instant instant, ZoneId zone) {
            return printer.format(instant.atZone(zone));
        }

        private static TemporalAccessor parseWhole(DateTimeFormatter parser, String text) {
            ParsePosition position = new ParsePosition(0);
            try {
                TemporalAccessor parsed = parser.parse(text, position);
                return position.getErrorIndex() < 0 && position.getIndex() == text.length() ? parsed : null;
            } catch (DateTimeParseException e) {
                return null;
            }
        }

        /** The parsers with Elasticsearch's round-up defaults for fields the text does not give. */
        private List<DateTimeFormatter> roundUpParsers() {
            List<DateTimeFormatter> result = roundUpParsers;
            if (result == null) {
                result = new ArrayList<>();
                for (DateTimeFormatter parser : parsers) {
                    DateTimeFormatterBuilder b = new DateTimeFormatterBuilder().append(parser);
                    if (parser.toString().contains(ChronoField.DAY_OF_YEAR.toString())) {
                        b.parseDefaulting(ChronoField.DAY_OF_YEAR, 1);
                    } else {
                        b.parseDefaulting(ChronoField.MONTH_OF_YEAR, 1);
                        b.parseDefaulting(ChronoField.DAY_OF_MONTH, 1);
                    }
                    b.parseDefaulting(ChronoField.HOUR_OF_DAY, 23);
                    b.parseDefaulting(ChronoField.MINUTE_OF_HOUR, 59);
                    b.parseDefaulting(ChronoField.SECOND_OF_MINUTE, 59);
                    b.parseDefaulting(ChronoField.NANO_OF_SECOND, 999_999_999);
                    result.add(b.toFormatter(Locale.ROOT).withResolverStyle(parser.getResolverStyle()));
                }
                result = List.copyOf(result);
                roundUpParsers = result;
            }
            return result;
        }

        /**
         * The instant of a parsed text: its own zone or the default one, the date from whatever date fields were
         * given (a year of era counts as the year), and midnight when no time was given.
         */
        private static Instant toInstant(TemporalAccessor parsed, ZoneId defaultZone) {
            ZoneId zone = parsed.query(TemporalQueries.zone());
            if (zone == null) {
                zone = defaultZone;
            }
            LocalTime time = parsed.query(TemporalQueries.localTime());
            LocalDate date = date(parsed, time != null);
            return date.atTime(time == null ? LocalTime.MIDNIGHT : time).atZone(zone).toInstant();
        }

        private static LocalDate date(TemporalAccessor parsed, boolean hasTime) {
            if (parsed.isSupported(ChronoField.EPOCH_DAY)) {
                return LocalDate.ofEpochDay(parsed.getLong(ChronoField.EPOCH_DAY));
            }
            Integer year = null;
            if (parsed.isSupported(ChronoField.YEAR)) {
                year = parsed.get(ChronoField.YEAR);
            } else if (parsed.isSupported(ChronoField.YEAR_OF_ERA)) {
                year = parsed.get(ChronoField.YEAR_OF_ERA);
            }
            boolean month = parsed.isSupported(ChronoField.MONTH_OF_YEAR);
            if (year != null) {
                if (month && parsed.isSupported(ChronoField.DAY_OF_MONTH)) {
                    return LocalDate.of(year, parsed.get(ChronoField.MONTH_OF_YEAR),
                            parsed.get(ChronoField.DAY_OF_MONTH));
                }
                if (parsed.isSupported(ChronoField.DAY_OF_YEAR)) {
                    return LocalDate.ofYearDay(year, parsed.get(ChronoField.DAY_OF_YEAR));
                }
                return LocalDate.of(year, month ? parsed.get(ChronoField.MONTH_OF_YEAR) : 1, 1);
            }
            if (month) {
                return LocalDate.of(1970, parsed.get(ChronoField.MONTH_OF_YEAR),
                        parsed.isSupported(ChronoField.DAY_OF_MONTH) ? parsed.get(ChronoField.DAY_OF_MONTH) : 1);
            }
            if (hasTime) {
                return LocalDate.EPOCH;
            }
            throw new DateTimeException("no date or time in [" + parsed + "]");
        }
    }

    /** {@code epoch_millis} or {@code epoch_second}: {@code -?digits{1,19}(.fraction)?}, never a zone. */
    private record Epoch(boolean seconds) implements Alternative {
        private static final BigDecimal NANOS_PER_SECOND = BigDecimal.valueOf(1_000_000_000L);
        private static final BigDecimal NANOS_PER_MILLI = BigDecimal.valueOf(1_000_000L);

        @Override
        public Instant parse(String text, ZoneId defaultZone, boolean roundUp) {
            BigDecimal value = value(text);
            if (value == null) {
                return null;
            }
            BigInteger nanos = value.multiply(seconds ? NANOS_PER_SECOND : NANOS_PER_MILLI)
                    .setScale(0, RoundingMode.FLOOR).toBigIntegerExact();
            BigInteger[] secondsAndNanos = nanos.divideAndRemainder(BigInteger.valueOf(1_000_000_000L));
            BigInteger epochSecond = secondsAndNanos[0];
            long nano = secondsAndNanos[1].longValue();
            if (nano < 0) {
                epochSecond = epochSecond.subtract(BigInteger.ONE);
                nano += 1_000_000_000L;
            }
            try {
                return Instant.ofEpochSecond(epochSecond.longValueExact(), nano);
            } catch (ArithmeticException | DateTimeException e) {
                return null;
            }
        }

        @Override
        public boolean accepts(String text) {
            return value(text) != null;
        }

        /** The number the text spells, or {@code null} if it is not of the epoch form. */
        private BigDecimal value(String text) {
            int i = 0;
            boolean negative = text.startsWith("-");
            if (negative) {
                i++;
            }
            int digitsStart = i;
            while (i < text.length() && isDigit(text.charAt(i))) {
                i++;
            }
            int digits = i - digitsStart;
            if (digits < 1 || digits > 19) {
                return null;
            }
            int fractionDigits = 0;
            if (i < text.length()) {
                if (text.charAt(i) != '.') {
                    return null;
                }
                i++;
                int fractionStart = i;
                while (i < text.length() && isDigit(text.charAt(i))) {
                    i++;
                }
                fractionDigits = i - fractionStart;
                if (i != text.length() || fractionDigits > (seconds ? 9 : 6)) {
                    return null;
                }
            }
            String number = text.substring(0, fractionDigits == 0 ? digitsStart + digits : text.length());
            return new BigDecimal(number);
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }

        @Override
        public String format(Instant instant, ZoneId zone) {
            BigDecimal nanos = BigDecimal.valueOf(instant.getEpochSecond()).multiply(NANOS_PER_SECOND)
                    .add(BigDecimal.valueOf(instant.getNano()));
            BigDecimal value = nanos.divide(seconds ? NANOS_PER_SECOND : NANOS_PER_MILLI);
            return value.stripTrailingZeros().scale() <= 0 ? value.toBigInteger().toString()
                    : value.stripTrailingZeros().toPlainString();
        }
    }
}
