package io.qdrant.esgateway.domain.time;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The common shapes of {@code strict_date_optional_time} read without a {@link java.time.format.DateTimeFormatter}:
 * {@code yyyy-MM-dd}, and {@code yyyy-MM-ddTHH:mm:ss} with an optional {@code .} fraction of 1 to 9 digits and an
 * optional {@code Z}. Every other text (another year width, a shorter date or time, a comma fraction, a numeric
 * offset or a zone id, anything invalid) is left to the formatter: {@link #parse} answers {@code null} and the caller
 * goes on as if this class did not exist. So it can only change the cost of a parse, never its result: where it
 * answers, the answer is the instant the formatter gives ({@code DateFormatTest} compares the two on generated texts).
 *
 * <p>Written because indexing parses every date value with the formatter otherwise: a bulk load of documents with
 * one date each spent ~3 % of its CPU there, and its compiled code was one of the largest the JIT built for the
 * write path (docs/benchmarks/README.md, "Write path").
 */
final class IsoDateFastPath {
    private IsoDateFastPath() {
    }

    /**
     * The instant of {@code text} in one of the shapes above (a text without {@code Z} in {@code defaultZone}), or
     * {@code null} when the text is not one of them or names no valid date and time.
     */
    static Instant parse(String text, ZoneId defaultZone) {
        int length = text.length();
        if (length != 10 && length < 19) {
            return null;
        }
        int year = digits(text, 0, 4);
        if (year < 0 || text.charAt(4) != '-' || text.charAt(7) != '-') {
            return null;
        }
        int month = digits(text, 5, 2);
        int day = digits(text, 8, 2);
        if (month < 1 || month > 12 || day < 1 || day > 31) {
            return null;
        }
        LocalDate date;
        try {
            date = LocalDate.of(year, month, day);
        } catch (DateTimeException invalid) {
            return null;
        }
        if (length == 10) {
            return date.atTime(LocalTime.MIDNIGHT).atZone(defaultZone).toInstant();
        }
        if (text.charAt(10) != 'T' || text.charAt(13) != ':' || text.charAt(16) != ':') {
            return null;
        }
        int hour = digits(text, 11, 2);
        int minute = digits(text, 14, 2);
        int second = digits(text, 17, 2);
        if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
            return null;
        }
        int at = 19;
        int nanos = 0;
        if (at < length && text.charAt(at) == '.') {
            int start = ++at;
            while (at < length && at - start < 9 && isDigit(text.charAt(at))) {
                nanos = nanos * 10 + (text.charAt(at) - '0');
                at++;
            }
            int count = at - start;
            if (count == 0 || (at < length && isDigit(text.charAt(at)))) {
                return null;
            }
            for (int i = count; i < 9; i++) {
                nanos *= 10;
            }
        }
        ZoneId zone = defaultZone;
        if (at < length) {
            if (at != length - 1 || text.charAt(at) != 'Z') {
                return null;
            }
            zone = ZoneOffset.UTC;
        }
        LocalDateTime local = date.atTime(hour, minute, second, nanos);
        return zone instanceof ZoneOffset offset ? local.toInstant(offset) : local.atZone(zone).toInstant();
    }

    /** The value of {@code count} ASCII digits at {@code from}, or -1 if one of them is not a digit. */
    private static int digits(String text, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            char c = text.charAt(i);
            if (!isDigit(c)) {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
