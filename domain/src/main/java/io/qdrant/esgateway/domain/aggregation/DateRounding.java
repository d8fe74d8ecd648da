package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.error.GatewayException;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;

/**
 * A {@code date_histogram} interval: a calendar unit ({@code calendar_interval}: the local start of the minute, hour,
 * day, week (Monday), month, quarter or year in the time zone, so a day may last 23 or 25 hours) or a fixed length
 * ({@code fixed_interval}: multiples of the length counted from the epoch in local time), with the {@code offset}
 * that shifts every bucket start. Keys are the UTC epoch milliseconds of the bucket start.
 */
public final class DateRounding {
    /** A calendar unit. */
    public enum Unit {
        SECOND(ChronoUnit.SECONDS), MINUTE(ChronoUnit.MINUTES), HOUR(ChronoUnit.HOURS), DAY(ChronoUnit.DAYS),
        WEEK(ChronoUnit.WEEKS), MONTH(ChronoUnit.MONTHS), QUARTER(null), YEAR(ChronoUnit.YEARS);

        final ChronoUnit chrono;

        Unit(ChronoUnit chrono) {
            this.chrono = chrono;
        }
    }

    private final Unit unit;
    private final long fixed;
    private final ZoneId zone;
    private final long offset;

    private DateRounding(Unit unit, long fixed, ZoneId zone, long offset) {
        this.unit = unit;
        this.fixed = fixed;
        this.zone = zone;
        this.offset = offset;
    }

    /** A {@code calendar_interval} ({@code 1d}, {@code day}, {@code 1M}, {@code month}, …). */
    public static DateRounding calendar(String interval, ZoneId zone, long offset) {
        Unit unit = switch (interval) {
            case "1s", "second" -> Unit.SECOND;
            case "1m", "minute" -> Unit.MINUTE;
            case "1h", "hour" -> Unit.HOUR;
            case "1d", "day" -> Unit.DAY;
            case "1w", "week" -> Unit.WEEK;
            case "1M", "month" -> Unit.MONTH;
            case "1q", "quarter" -> Unit.QUARTER;
            case "1y", "year" -> Unit.YEAR;
            default -> throw GatewayException.illegalArgument("The supplied interval [" + interval
                    + "] could not be parsed as a calendar interval.");
        };
        return new DateRounding(unit, 0, zone, offset);
    }

    /** A {@code fixed_interval} ({@code 90m}, {@code 2d}, {@code 500ms}, …). */
    public static DateRounding fixed(String interval, ZoneId zone, long offset) {
        long millis = TimeValues.millis(interval, "date_histogram.fixedInterval");
        if (millis <= 0) {
            throw GatewayException.illegalArgument("Zero or negative time interval not supported");
        }
        return new DateRounding(null, millis, zone, offset);
    }

    public ZoneId zone() {
        return zone;
    }

    /** The start of the bucket {@code utcMillis} falls in. */
    public long round(long utcMillis) {
        return roundLocal(utcMillis - offset) + offset;
    }

    /** The start of the bucket after the one starting at {@code key}. */
    public long next(long key) {
        long start = key - offset;
        if (unit == null) {
            if (zone.getRules().isFixedOffset()) {
                return key + fixed;
            }
            LocalDateTime local = LocalDateTime.ofInstant(Instant.ofEpochMilli(start), zone)
                    .plus(fixed, ChronoUnit.MILLIS);
            long candidate = ZonedDateTime.ofLocal(local, zone, null).toInstant().toEpochMilli();
            long rounded = roundLocal(candidate);
            return (rounded > start ? rounded : roundLocal(start + fixed)) + offset;
        }
        ZonedDateTime z = Instant.ofEpochMilli(start).atZone(zone);
        ZonedDateTime plus = unit == Unit.QUARTER ? z.plusMonths(3) : z.plus(1, unit.chrono);
        long candidate = truncate(plus).toInstant().toEpochMilli();
        if (candidate <= start) {
            // a day that starts twice (a DST change at midnight): step past it
            candidate = truncate(plus.plusHours(3)).toInstant().toEpochMilli();
        }
        return candidate + offset;
    }

    private long roundLocal(long utc) {
        if (unit != null) {
            return truncate(Instant.ofEpochMilli(utc).atZone(zone)).toInstant().toEpochMilli();
        }
        ZoneRules rules = zone.getRules();
        Instant instant = Instant.ofEpochMilli(utc);
        long shift = rules.getOffset(instant).getTotalSeconds() * 1000L;
        long local = Math.floorDiv(utc + shift, fixed) * fixed;
        if (rules.isFixedOffset()) {
            return local - shift;
        }
        LocalDateTime start = LocalDateTime.ofInstant(Instant.ofEpochMilli(local), ZoneOffset.UTC);
        List<ZoneOffset> offsets = rules.getValidOffsets(start);
        if (offsets.isEmpty()) {
            // the local start does not exist (skipped by a DST change): the bucket starts at the change
            ZoneOffsetTransition gap = rules.getTransition(start);
            return gap.getInstant().toEpochMilli();
        }
        // the latest instant with that local time that is not after the value
        for (int i = offsets.size() - 1; i >= 0; i--) {
            long candidate = start.toInstant(offsets.get(i)).toEpochMilli();
            if (candidate <= utc) {
                ZoneOffsetTransition previous = rules.previousTransition(instant.plusMillis(1));
                if (previous != null && candidate < previous.getInstant().toEpochMilli()
                        && previous.getInstant().toEpochMilli() <= utc) {
                    // rounding down across a transition: round the instant just before it instead
                    return roundLocal(previous.getInstant().toEpochMilli() - 1);
                }
                return candidate;
            }
        }
        return start.toInstant(offsets.getFirst()).toEpochMilli();
    }

    private ZonedDateTime truncate(ZonedDateTime z) {
        return switch (unit) {
            case SECOND, MINUTE, HOUR -> z.truncatedTo(unit.chrono);
            case DAY -> z.toLocalDate().atStartOfDay(zone);
            case WEEK -> z.toLocalDate().with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)).atStartOfDay(zone);
            case MONTH -> z.toLocalDate().withDayOfMonth(1).atStartOfDay(zone);
            case QUARTER -> z.toLocalDate().withDayOfMonth(1).withMonth((z.getMonthValue() - 1) / 3 * 3 + 1)
                    .atStartOfDay(zone);
            case YEAR -> z.toLocalDate().withDayOfYear(1).atStartOfDay(zone);
        };
    }
}
