package io.qdrant.esgateway.domain.query;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;

/**
 * ES's {@code fuzziness}: a fixed number of edits (0, 1 or 2), or {@code AUTO[:low,high]} — 0 edits for terms
 * shorter than {@code low} (default 3), 1 up to {@code high} (default 6), 2 beyond.
 */
public sealed interface Fuzziness {

    /** The edit distance allowed for a term of this many characters (code points). */
    int editsFor(int termLength);

    record Fixed(int edits) implements Fuzziness {
        @Override
        public int editsFor(int termLength) {
            return edits;
        }
    }

    record Auto(int low, int high) implements Fuzziness {
        @Override
        public int editsFor(int termLength) {
            return termLength < low ? 0 : termLength < high ? 1 : 2;
        }
    }

    static Fuzziness parse(JsonValue value, String where) {
        String text = JsonReads.text(value).orElseThrow(() -> GatewayException.parse("[" + where
                + "] fuzziness must be a number or AUTO"));
        String upper = text.toUpperCase(java.util.Locale.ROOT);
        if (upper.equals("AUTO")) {
            return new Auto(3, 6);
        }
        if (upper.startsWith("AUTO:")) {
            String[] parts = text.substring(5).split(",");
            try {
                if (parts.length == 2) {
                    int low = Integer.parseInt(parts[0].trim());
                    int high = Integer.parseInt(parts[1].trim());
                    if (low >= 0 && high >= low) {
                        return new Auto(low, high);
                    }
                }
            } catch (NumberFormatException ignored) {
                // reported below
            }
            throw GatewayException.parse("failed to find low and high distance values in [" + text + "]");
        }
        try {
            double d = Double.parseDouble(text);
            int edits = (int) d;
            if (edits != d || edits < 0 || edits > 2) {
                throw GatewayException.illegalArgument("Valid edit distances are [0, 1, 2] but was [" + text + "]");
            }
            return new Fixed(edits);
        } catch (NumberFormatException e) {
            throw GatewayException.parse("[" + where + "] invalid fuzziness [" + text + "]");
        }
    }
}
