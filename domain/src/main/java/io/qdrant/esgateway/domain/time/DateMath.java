package io.qdrant.esgateway.domain.time;

import io.qdrant.esgateway.domain.error.GatewayException;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.function.LongSupplier;

/**
 * Elasticsearch's date math: {@code now}, or a date followed by {@code ||}, then operations {@code +1d}, {@code -2M},
 * {@code /d} (units {@code y M w d h H m s}). Arithmetic and rounding happen in the time zone given (UTC by default),
 * as in Elasticsearch's {@code JavaDateMathParser}.
 *
 * <p>{@code roundUp} is how Elasticsearch parses the upper bound of {@code lte} and the lower bound of {@code gt}:
 * a rounding {@code /d} goes to the last millisecond of the unit instead of its first, and a date without a time of
 * day is taken at its end. Range bounds then become: {@code gte} → parse(roundUp=false); {@code gt} →
 * parse(roundUp=true) + 1 ms; {@code lte} → parse(roundUp=true); {@code lt} → parse(roundUp=false) − 1 ms.
 */
public final class DateMath {
    private DateMath() {
    }

    /**
     * The epoch milliseconds of {@code text}.
     *
     * @param format the format of the date part (the field's or the query's {@code format})
     * @param zone the zone of dates without one, and of rounding; {@code null} for UTC
     * @param now the current time in epoch milliseconds, read at most once
     * @throws GatewayException {@code PARSE} for bad math, {@code ILLEGAL_ARGUMENT} for a date the format rejects
     */
    public static long parse(String text, DateFormat format, ZoneId zone, boolean roundUp, LongSupplier now) {
        ZoneId tz = zone == null ? ZoneOffset.UTC : zone;
        Instant time;
        String math;
        if (text.startsWith("now")) {
            time = Instant.ofEpochMilli(now.getAsLong());
            math = text.substring(3);
        } else {
            int bars = text.indexOf("||");
            if (bars < 0) {
                return toMillis(format.parse(text, tz, roundUp), text);
            }
            time = format.parse(text.substring(0, bars), tz, false);
            math = text.substring(bars + 2);
        }
        return toMillis(applyMath(math, time, roundUp, tz, text), text);
    }

    private static long toMillis(Instant instant, String text) {
        try {
            return instant.toEpochMilli();
        } catch (ArithmeticException e) {
            throw GatewayException.parse("failed to parse date field [" + text + "]: out of range");
        }
    }

    private static Instant applyMath(String math, Instant time, boolean roundUp, ZoneId zone, String text) {
        if (math.isEmpty()) {
            return time;
        }
        ZonedDateTime date = time.atZone(zone);
        int i = 0;
        while (i < math.length()) {
            char c = math.charAt(i++);
            boolean round;
            int sign = 1;
            if (c == '/') {
                round = true;
            } else {
                round = false;
                if (c == '+') {
                    sign = 1;
                } else if (c == '-') {
                    sign = -1;
                } else {
                    throw GatewayException.parse("operator not supported for date math [" + math + "]");
                }
            }
            if (i >= math.length()) {
                throw GatewayException.parse("truncated date math [" + math + "]");
            }
            int amount;
            if (!Character.isDigit(math.charAt(i))) {
                amount = 1;
            } else {
                int start = i;
                while (i < math.length() && Character.isDigit(math.charAt(i))) {
                    i++;
                }
                if (i >= math.length()) {
                    throw GatewayException.parse("truncated date math [" + math + "]");
                }
                try {
                    amount = Integer.parseInt(math.substring(start, i));
                } catch (NumberFormatException e) {
                    throw GatewayException.parse("failed to parse date math [" + math + "]: amount too large");
                }
            }
            if (round && amount != 1) {
                throw GatewayException.parse("rounding `/` can only be used on single unit types [" + math + "]");
            }
            char unit = math.charAt(i++);
            ChronoUnit chrono = switch (unit) {
                case 'y' -> ChronoUnit.YEARS;
                case 'M' -> ChronoUnit.MONTHS;
                case 'w' -> ChronoUnit.WEEKS;
                case 'd' -> ChronoUnit.DAYS;
                case 'h', 'H' -> ChronoUnit.HOURS;
                case 'm' -> ChronoUnit.MINUTES;
                case 's' -> ChronoUnit.SECONDS;
                default -> throw GatewayException.parse("unit [" + unit + "] not supported for date math [" + math
                        + "]");
            };
            if (round) {
                date = roundDown(date, chrono);
                if (roundUp) {
                    date = date.plus(1, chrono).minus(1, ChronoUnit.MILLIS);
                }
            } else {
                date = date.plus((long) sign * amount, chrono);
            }
        }
        return date.toInstant();
    }

    private static ZonedDateTime roundDown(ZonedDateTime date, ChronoUnit unit) {
        return switch (unit) {
            case YEARS -> date.withDayOfYear(1).truncatedTo(ChronoUnit.DAYS);
            case MONTHS -> date.withDayOfMonth(1).truncatedTo(ChronoUnit.DAYS);
            case WEEKS -> date.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)).truncatedTo(ChronoUnit.DAYS);
            default -> date.truncatedTo(unit);
        };
    }
}
