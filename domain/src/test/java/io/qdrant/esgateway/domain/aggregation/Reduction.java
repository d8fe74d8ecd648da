package io.qdrant.esgateway.domain.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The reducer property: documents split into random partitions, each collected alone, the partials merged in random
 * order and grouping, must render what one pass over all documents renders (numbers within 1e-9 relative: a
 * compensated sum may round differently when added up in another order).
 */
final class Reduction {
    private Reduction() {
    }

    static JsonValue onePass(AggregationPlan plan, List<? extends AggregationDoc> docs) {
        return collectOnce(plan, docs).render();
    }

    static NamedPartials collectOnce(AggregationPlan plan, List<? extends AggregationDoc> docs) {
        NamedCollectors c = plan.newCollectors();
        docs.forEach(c::collect);
        return c.partial();
    }

    static JsonValue partitioned(AggregationPlan plan, List<? extends AggregationDoc> docs, Random random) {
        return collectPartitioned(plan, docs, random).render();
    }

    static NamedPartials collectPartitioned(AggregationPlan plan, List<? extends AggregationDoc> docs,
                                            Random random) {
        List<AggregationDoc> shuffled = new ArrayList<>(docs);
        Collections.shuffle(shuffled, random);
        int parts = 1 + random.nextInt(Math.max(1, Math.min(8, shuffled.size())));
        List<NamedPartials> partials = new ArrayList<>();
        int start = 0;
        for (int p = 0; p < parts; p++) {
            int end = p == parts - 1 ? shuffled.size() : start + random.nextInt(shuffled.size() - start + 1);
            NamedCollectors c = plan.newCollectors();
            shuffled.subList(start, end).forEach(c::collect);
            partials.add(c.partial());
            start = end;
        }
        // merge random neighbours until one is left: every grouping and order is reachable
        while (partials.size() > 1) {
            int i = random.nextInt(partials.size() - 1);
            NamedPartials merged = random.nextBoolean() ? partials.get(i).merge(partials.get(i + 1))
                    : partials.get(i + 1).merge(partials.get(i));
            partials.set(i, merged);
            partials.remove(i + 1);
        }
        return partials.get(0);
    }

    /** Asserts that both renderings are equal, numbers within 1e-9 relative. */
    static void assertSame(JsonValue expected, JsonValue actual) {
        assertThat(equal(expected, actual, ""))
                .as("expected %s%nbut got  %s", Json.write(expected), Json.write(actual)).isNull();
    }

    /** The first differing path, or null. */
    static String equal(JsonValue a, JsonValue b, String path) {
        if (a instanceof JsonNumber x && b instanceof JsonNumber y) {
            double p = x.value().doubleValue();
            double q = y.value().doubleValue();
            if (p == q || Math.abs(p - q) <= 1e-9 * Math.max(Math.abs(p), Math.abs(q))) {
                return null;
            }
            return path;
        }
        if (a instanceof JsonObject x && b instanceof JsonObject y) {
            if (!x.members().keySet().equals(y.members().keySet())) {
                return path + " keys " + x.members().keySet() + " vs " + y.members().keySet();
            }
            for (String k : x.members().keySet()) {
                String d = equal(x.get(k), y.get(k), path + "/" + k);
                if (d != null) {
                    return d;
                }
            }
            return null;
        }
        if (a instanceof JsonArray x && b instanceof JsonArray y) {
            if (x.elements().size() != y.elements().size()) {
                return path + " length";
            }
            for (int i = 0; i < x.elements().size(); i++) {
                String d = equal(x.elements().get(i), y.elements().get(i), path + "/" + i);
                if (d != null) {
                    return d;
                }
            }
            return null;
        }
        return a.equals(b) ? null : path;
    }
}
