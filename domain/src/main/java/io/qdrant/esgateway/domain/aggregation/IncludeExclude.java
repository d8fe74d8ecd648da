package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.text.LuceneRegex;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.ObjectParseErrors;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * {@code include}/{@code exclude} of a {@code terms} aggregation, as Elasticsearch 8 has them: a regular expression
 * in Lucene's syntax (keyword fields only), an array of exact values (in the field's type), or a partition
 * ({@code {"partition": p, "num_partitions": n}}: the terms whose hash falls into partition {@code p}). A key is
 * kept when it is included (or nothing is included) and not excluded.
 */
public record IncludeExclude(Optional<String> includeRegex, Optional<List<JsonValue>> includeValues,
                             Optional<String> excludeRegex, Optional<List<JsonValue>> excludeValues,
                             int partition, int numPartitions) {
    public static final IncludeExclude NONE = new IncludeExclude(Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty(), 0, 0);

    /** ES's seed for hashing a term into a partition. */
    private static final int PARTITION_SEED = 31;

    public IncludeExclude {
        includeValues = includeValues.map(List::copyOf);
        excludeValues = excludeValues.map(List::copyOf);
    }

    public boolean isEmpty() {
        return this.equals(NONE);
    }

    boolean usesRegex() {
        return includeRegex.isPresent() || excludeRegex.isPresent();
    }

    /** Reads {@code include} (into {@code current}), as ES's terms parser does. */
    public static IncludeExclude parseInclude(IncludeExclude current, JsonValue v) {
        if (v instanceof JsonArray a) {
            return new IncludeExclude(Optional.empty(), Optional.of(a.elements()), current.excludeRegex,
                    current.excludeValues, 0, 0);
        }
        if (v instanceof JsonObject o) {
            Integer partition = null;
            Integer num = null;
            for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
                long n = JsonReads.integer(e.getValue()).orElseThrow(() -> includeError(e.getValue().at(),
                        GatewayException.illegalArgument("[" + e.getKey() + "] must be a number")));
                switch (e.getKey()) {
                    case "partition" -> partition = (int) n;
                    case "num_partitions" -> num = (int) n;
                    default -> throw includeError(e.getValue().at(), GatewayException.illegalArgument(
                            "Unknown parameter in Include/Exclude clause: " + e.getKey()));
                }
            }
            if (num == null) {
                throw includeError(o.end(), GatewayException.illegalArgument("Missing [num_partitions] parameter"
                        + " for partition-based include"));
            }
            if (partition == null) {
                throw includeError(o.end(), GatewayException.illegalArgument("Missing [partition] parameter for"
                        + " partition-based include"));
            }
            if (partition < 0 || partition >= num) {
                throw includeError(o.end(), GatewayException.illegalArgument("Partition must be >=0 and <"
                        + " numPartition which is " + num));
            }
            if (current.excludeRegex.isPresent() || current.excludeValues.isPresent()) {
                throw includeError(o.end(), GatewayException.illegalArgument("Cannot specify any excludes when"
                        + " using a partition-based include"));
            }
            return new IncludeExclude(Optional.empty(), Optional.empty(), current.excludeRegex,
                    current.excludeValues, partition, num);
        }
        String regex = JsonReads.text(v).orElseThrow(() -> new GatewayException(ErrorKind.PARSING,
                "[terms] include doesn't support values of type: " + v.tokenName()));
        validate(regex, "include", v);
        return new IncludeExclude(Optional.of(regex), Optional.empty(), current.excludeRegex, current.excludeValues,
                0, 0);
    }

    /** Reads {@code exclude} (into {@code current}). */
    public static IncludeExclude parseExclude(IncludeExclude current, JsonValue v) {
        if (current.numPartitions > 0) {
            throw ObjectParseErrors.failedToParse("terms", "exclude", v instanceof JsonArray a ? a.end() : v.at(),
                    GatewayException.illegalArgument("Cannot specify any excludes when using a partition-based"
                            + " include"));
        }
        if (v instanceof JsonArray a) {
            return new IncludeExclude(current.includeRegex, current.includeValues, Optional.empty(),
                    Optional.of(a.elements()), current.partition, current.numPartitions);
        }
        String regex = JsonReads.text(v).filter(t -> !(v instanceof JsonObject)).orElseThrow(
                () -> new GatewayException(ErrorKind.PARSING, "[terms] exclude doesn't support values of type: "
                        + v.tokenName()));
        validate(regex, "exclude", v);
        return new IncludeExclude(current.includeRegex, current.includeValues, Optional.of(regex), Optional.empty(),
                current.partition, current.numPartitions);
    }

    /** A malformed expression fails when the body is read, as in ES ({@code [terms] failed to parse field [..]}). */
    private static void validate(String regex, String key, JsonValue v) {
        try {
            LuceneRegex.compile(regex);
        } catch (GatewayException e) {
            if (e.kind() != ErrorKind.ILLEGAL_ARGUMENT) {
                throw e;
            }
            throw ObjectParseErrors.failedToParse("terms", key, v.at(), e);
        }
    }

    /** ES's "[l:c] [terms] failed to parse field [include]", {@code at} where its parser stood. */
    private static GatewayException includeError(long at, GatewayException cause) {
        return ObjectParseErrors.failedToParse("terms", "include", at, cause);
    }

    /**
     * The keys this clause keeps, for {@code field} of one index; a regular expression on a field that is not a
     * keyword is ES's {@code illegal_argument_exception} (a failure of that index).
     */
    Predicate<Object> filter(String aggregation, FieldRef field, LongSupplier now) {
        if (isEmpty()) {
            return k -> true;
        }
        if (usesRegex() && field.kind() != FieldRef.ValueKind.KEYWORD && field.kind() != FieldRef.ValueKind.UNMAPPED) {
            throw GatewayException.illegalArgument("Aggregation [" + aggregation + "] cannot support regular"
                    + " expression style include/exclude settings as they can only be applied to string fields. Use"
                    + " an array of numeric values for include/exclude clauses used to filter numeric fields");
        }
        Predicate<Object> include = k -> true;
        if (includeRegex.isPresent()) {
            Predicate<String> p = LuceneRegex.compile(includeRegex.get());
            include = k -> k instanceof String s && p.test(s);
        } else if (includeValues.isPresent()) {
            Set<Object> values = values(includeValues.get(), field, now);
            include = values::contains;
        } else if (numPartitions > 0) {
            include = k -> Math.floorMod(hash(k), numPartitions) == partition;
        }
        Predicate<Object> exclude = k -> false;
        if (excludeRegex.isPresent()) {
            Predicate<String> p = LuceneRegex.compile(excludeRegex.get());
            exclude = k -> k instanceof String s && p.test(s);
        } else if (excludeValues.isPresent()) {
            Set<Object> values = values(excludeValues.get(), field, now);
            exclude = values::contains;
        }
        Predicate<Object> in = include;
        Predicate<Object> out = exclude;
        return k -> in.test(k) && !out.test(k);
    }

    private static Set<Object> values(List<JsonValue> values, FieldRef field, LongSupplier now) {
        Set<Object> out = new HashSet<>();
        for (JsonValue v : values) {
            try {
                out.add(Keys.missingKey(v, field, now));
            } catch (GatewayException e) {
                // ES parses the values with the field's parser: Long.parseLong's error
                throw GatewayException.illegalArgument("For input string: \"" + JsonReads.text(v).orElse("")
                        + "\"");
            }
        }
        return out;
    }

    /** The hash ES partitions terms by: murmur3 of a keyword's UTF-8 bytes, a 64-bit mix of a number. */
    static long hash(Object key) {
        if (key instanceof String s) {
            return murmur3(s.getBytes(StandardCharsets.UTF_8), PARTITION_SEED);
        }
        long bits = key instanceof Double d ? sortableLong(d) : ((Number) key).longValue();
        return mix64(bits);
    }

    private static long sortableLong(double d) {
        long bits = Double.doubleToLongBits(d);
        return bits ^ (bits >> 63) & 0x7fffffffffffffffL;
    }

    static long mix64(long z) {
        z = (z ^ (z >>> 32)) * 0x4cd6944c5cc20b6dL;
        z = (z ^ (z >>> 29)) * 0xfc12c5b19d3259e9L;
        return z ^ (z >>> 32);
    }

    static int murmur3(byte[] data, int seed) {
        final int c1 = 0xcc9e2d51;
        final int c2 = 0x1b873593;
        int h1 = seed;
        int blocks = data.length & ~3;
        for (int i = 0; i < blocks; i += 4) {
            int k1 = (data[i] & 0xff) | (data[i + 1] & 0xff) << 8 | (data[i + 2] & 0xff) << 16 | data[i + 3] << 24;
            k1 *= c1;
            k1 = Integer.rotateLeft(k1, 15);
            k1 *= c2;
            h1 ^= k1;
            h1 = Integer.rotateLeft(h1, 13);
            h1 = h1 * 5 + 0xe6546b64;
        }
        int k1 = 0;
        switch (data.length & 3) {
            case 3:
                k1 = (data[blocks + 2] & 0xff) << 16;
                // fall through
            case 2:
                k1 |= (data[blocks + 1] & 0xff) << 8;
                // fall through
            case 1:
                k1 |= data[blocks] & 0xff;
                k1 *= c1;
                k1 = Integer.rotateLeft(k1, 15);
                k1 *= c2;
                h1 ^= k1;
                break;
            default:
                break;
        }
        h1 ^= data.length;
        h1 ^= h1 >>> 16;
        h1 *= 0x85ebca6b;
        h1 ^= h1 >>> 13;
        h1 *= 0xc2b2ae35;
        h1 ^= h1 >>> 16;
        return h1;
    }
}
