package io.qdrant.esgateway.domain.search;

import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNull;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import io.qdrant.esgateway.domain.sort.SortSpec;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The order of hits from several indices, as Elasticsearch merges shard results: by the request's sort values
 * (numbers numerically, strings by their UTF-8 bytes as Lucene's terms, {@code null} — a missing keyword — last
 * ascending and first descending unless {@code missing} says otherwise), or by score descending.
 */
public final class HitOrder {
    private HitOrder() {
    }

    public static Comparator<Hit> of(SearchRequest request) {
        if (request.sort().isEmpty()) {
            return Comparator.comparingDouble((Hit h) -> h.scored() ? h.score() : Double.NEGATIVE_INFINITY).reversed();
        }
        List<SortSpec> sort = request.sort();
        return (a, b) -> {
            for (int i = 0; i < sort.size(); i++) {
                SortSpec spec = sort.get(i);
                int c;
                if (spec instanceof SortSpec.Score) {
                    c = Float.compare(a.score(), b.score());
                } else {
                    c = compareValues(value(a, i), value(b, i), missingFirst(spec));
                }
                if (spec.order() == SortSpec.Order.DESC) {
                    c = -c;
                }
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
    }

    private static JsonValue value(Hit hit, int i) {
        return i < hit.sort().size() ? hit.sort().get(i) : JsonNull.INSTANCE;
    }

    /** Where a null (missing) value sorts before the order is applied: so that _last stays last either way. */
    private static boolean missingFirst(SortSpec spec) {
        boolean first = spec instanceof SortSpec.Field f && f.missing() instanceof SortSpec.Missing.First;
        return spec.order() == SortSpec.Order.DESC != first;
    }

    static int compareValues(JsonValue a, JsonValue b, boolean nullsFirst) {
        boolean an = a instanceof JsonNull;
        boolean bn = b instanceof JsonNull;
        if (an || bn) {
            return an == bn ? 0 : (an == nullsFirst ? -1 : 1);
        }
        if (a instanceof JsonNumber x && b instanceof JsonNumber y) {
            return new BigDecimal(x.value().toString()).compareTo(new BigDecimal(y.value().toString()));
        }
        if (a instanceof JsonString x && b instanceof JsonString y) {
            return Arrays.compareUnsigned(x.value().getBytes(StandardCharsets.UTF_8),
                    y.value().getBytes(StandardCharsets.UTF_8));
        }
        return a.tokenName().compareTo(b.tokenName());
    }
}
