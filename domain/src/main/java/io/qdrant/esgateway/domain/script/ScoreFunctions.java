package io.qdrant.esgateway.domain.script;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.time.DateFormat;
import io.qdrant.esgateway.domain.time.DateMath;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The functions of Elasticsearch's score context ({@code script_score}), by {@code name/arity}: the vector functions
 * over a {@code dense_vector} field ({@code cosineSimilarity}, {@code dotProduct}, {@code l1norm}, {@code l2norm}),
 * {@code saturation}, {@code sigmoid}, the numeric and date decay functions and {@code randomScore}. Each receives the
 * run's {@link ScoreDoc} as its receiver.
 */
final class ScoreFunctions {
    private ScoreFunctions() {
    }

    static final Map<String, Api.Fn> ALL = new HashMap<>();

    static {
        ALL.put("saturation/2", (r, a) -> {
            double value = Api.d(a[0]);
            return value / (Api.d(a[1]) + value);
        });
        ALL.put("sigmoid/3", (r, a) -> {
            double value = Api.d(a[0]);
            double exp = Api.d(a[2]);
            return Math.pow(value, exp) / (Math.pow(Api.d(a[1]), exp) + Math.pow(value, exp));
        });
        ALL.put("randomScore/1", (r, a) -> random(String.valueOf(((ScoreDoc) r).reader.docId()), Api.i(a[0])));
        ALL.put("randomScore/2", (r, a) -> {
            ScoreDoc doc = (ScoreDoc) r;
            Object values = doc.get(Api.str(a[1]));
            if (!(values instanceof ScriptDocValues v) || v.isEmpty()) {
                throw PainlessRuntimeError.illegalArgument("document [" + doc.reader.docId()
                        + "] has no value for the field [" + a[1] + "] of randomScore");
            }
            return random(String.valueOf(v.get(0)), Api.i(a[0]));
        });
        for (String kind : List.of("Linear", "Exp", "Gauss")) {
            ALL.put("decayNumeric" + kind + "/5", (r, a) -> {
                double distance = Math.max(0.0, Math.abs(Api.d(a[4]) - Api.d(a[0])) - Api.d(a[2]));
                return decay(kind, distance, Api.d(a[1]), Api.d(a[3]));
            });
            ALL.put("decayDate" + kind + "/5", (r, a) -> {
                long origin = dateMillis(Api.str(a[0]));
                long scale = timeValue(Api.str(a[1]), "DecayDate" + kind + ".scale");
                long offset = timeValue(Api.str(a[2]), "DecayDate" + kind + ".offset");
                if (!(a[4] instanceof ZonedDateTime date)) {
                    throw PainlessRuntimeError.classCast("Cannot cast " + Ops.typeName(a[4])
                            + " to java.time.ZonedDateTime");
                }
                long value = date.toInstant().toEpochMilli();
                long diff = value >= origin ? value - origin : origin - value;
                return decay(kind, Math.max(0, diff - offset), scale, Api.d(a[3]));
            });
        }
        ALL.put("cosineSimilarity/2", (r, a) -> {
            ScoreScript.QueryVector q = ((ScoreDoc) r).script.queryVector(a[0]);
            float[] v = ((ScoreDoc) r).vector(Api.str(a[1]), q.values().length);
            float dot = 0;
            float norm = 0;
            for (int i = 0; i < v.length; i++) {
                dot += q.values()[i] * v[i];
                norm += v[i] * v[i];
            }
            return (double) dot / ((float) Math.sqrt(norm) * q.magnitude());
        });
        ALL.put("dotProduct/2", (r, a) -> {
            ScoreScript.QueryVector q = ((ScoreDoc) r).script.queryVector(a[0]);
            float[] v = ((ScoreDoc) r).vector(Api.str(a[1]), q.values().length);
            float dot = 0;
            for (int i = 0; i < v.length; i++) {
                dot += q.values()[i] * v[i];
            }
            return (double) dot;
        });
        ALL.put("l1norm/2", (r, a) -> {
            ScoreScript.QueryVector q = ((ScoreDoc) r).script.queryVector(a[0]);
            float[] v = ((ScoreDoc) r).vector(Api.str(a[1]), q.values().length);
            double sum = 0;
            for (int i = 0; i < v.length; i++) {
                sum += Math.abs(q.values()[i] - v[i]);
            }
            return sum;
        });
        ALL.put("l2norm/2", (r, a) -> {
            ScoreScript.QueryVector q = ((ScoreDoc) r).script.queryVector(a[0]);
            float[] v = ((ScoreDoc) r).vector(Api.str(a[1]), q.values().length);
            double sum = 0;
            for (int i = 0; i < v.length; i++) {
                double diff = q.values()[i] - v[i];
                sum += diff * diff;
            }
            return Math.sqrt(sum);
        });
    }

    private static double decay(String kind, double distance, double scale, double decay) {
        return switch (kind) {
            case "Linear" -> {
                double scaling = scale / (1.0 - decay);
                yield Math.max(0.0, (scaling - distance) / scaling);
            }
            case "Exp" -> Math.exp(Math.log(decay) / scale * distance);
            default -> Math.exp(0.5 * Math.pow(distance, 2.0) / (0.5 * Math.pow(scale, 2.0) / Math.log(decay)));
        };
    }

    /** An Elasticsearch time value ({@code 12h}, {@code 2d}, {@code 500ms}) in milliseconds. */
    private static long timeValue(String text, String setting) {
        String t = text.trim();
        String[][] units = {{"ms", "1"}, {"s", "1000"}, {"m", "60000"}, {"h", "3600000"}, {"d", "86400000"}};
        for (String[] u : units) {
            if (t.endsWith(u[0]) && !(u[0].equals("s") && t.endsWith("ms"))) {
                try {
                    return Math.multiplyExact(Long.parseLong(t.substring(0, t.length() - u[0].length()).trim()),
                            Long.parseLong(u[1]));
                } catch (NumberFormatException | ArithmeticException e) {
                    break;
                }
            }
        }
        throw PainlessRuntimeError.illegalArgument("failed to parse setting [" + setting + "] with value [" + text
                + "] as a time value: unit is missing or unrecognized");
    }

    private static long dateMillis(String text) {
        try {
            return DateMath.parse(text, DateFormat.defaultFormat(), ZoneOffset.UTC, false, () -> {
                throw PainlessRuntimeError.illegalArgument("[now] is not allowed in the origin of a date decay");
            });
        } catch (GatewayException e) {
            throw PainlessRuntimeError.illegalArgument(e.getMessage());
        }
    }

    /** A value in [0, 1) from the lower 24 bits of the 32-bit MurmurHash3 of {@code value}, as Elasticsearch. */
    private static double random(String value, int seed) {
        int hash = murmur3(value.getBytes(StandardCharsets.UTF_8), seed);
        return (hash & 0x00FFFFFF) / (float) (1 << 24);
    }

    /** MurmurHash3, x86 32-bit variant. */
    static int murmur3(byte[] data, int seed) {
        final int c1 = 0xcc9e2d51;
        final int c2 = 0x1b873593;
        int h = seed;
        int rounded = data.length & ~3;
        for (int i = 0; i < rounded; i += 4) {
            int k = (data[i] & 0xff) | (data[i + 1] & 0xff) << 8 | (data[i + 2] & 0xff) << 16 | data[i + 3] << 24;
            k *= c1;
            k = Integer.rotateLeft(k, 15);
            k *= c2;
            h ^= k;
            h = Integer.rotateLeft(h, 13);
            h = h * 5 + 0xe6546b64;
        }
        int k = 0;
        switch (data.length & 3) {
            case 3:
                k = (data[rounded + 2] & 0xff) << 16;
                // fall through
            case 2:
                k |= (data[rounded + 1] & 0xff) << 8;
                // fall through
            case 1:
                k |= data[rounded] & 0xff;
                k *= c1;
                k = Integer.rotateLeft(k, 15);
                k *= c2;
                h ^= k;
                break;
            default:
                break;
        }
        h ^= data.length;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }
}
