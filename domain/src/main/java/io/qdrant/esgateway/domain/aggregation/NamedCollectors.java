package io.qdrant.esgateway.domain.aggregation;

import java.util.LinkedHashMap;
import java.util.Map;

/** The collectors of a level of aggregations (the top level, or one bucket's sub-aggregations), by name. */
public final class NamedCollectors {
    private final String[] names;
    private final Collector[] collectors;

    NamedCollectors(Map<String, Collector> collectors) {
        this.names = collectors.keySet().toArray(String[]::new);
        this.collectors = collectors.values().toArray(Collector[]::new);
    }

    /** The collectors by name, in order. */
    Map<String, Collector> asMap() {
        Map<String, Collector> out = new LinkedHashMap<>();
        for (int i = 0; i < names.length; i++) {
            out.put(names[i], collectors[i]);
        }
        return out;
    }

    public void collect(AggregationDoc doc) {
        for (Collector c : collectors) {
            c.collect(doc);
        }
    }

    public NamedPartials partial() {
        Map<String, Partial> out = new LinkedHashMap<>();
        for (int i = 0; i < names.length; i++) {
            out.put(names[i], collectors[i].partial());
        }
        return new NamedPartials(out);
    }
}
