package io.qdrant.esgateway.domain.analysis;

import java.util.Locale;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The {@code normalizer} of a {@code keyword} field: the name the mapping gives and, once bound to its index's
 * analysis settings ({@link #bind}), the function that normalizes a value — applied to indexed values (so sorts,
 * aggregations and stored terms see the normalized form) and to the values of term-level queries, as Elasticsearch
 * does. The function comes from the analysis adapter ({@link #install}); the built-in {@code lowercase} normalizer
 * works without it. Two normalizers are equal when their names are (the mapping's identity of the parameter).
 */
public final class KeywordNormalizer {
    /** Builds the normalizing function of a normalizer of an index's analysis settings. */
    public interface Resolver {
        UnaryOperator<String> normalizer(AnalysisSettings analysis, String name);
    }

    private static volatile Resolver resolver;

    private final String name;
    private final AnalysisSettings analysis;
    private volatile UnaryOperator<String> function;

    private KeywordNormalizer(String name, AnalysisSettings analysis) {
        this.name = Objects.requireNonNull(name);
        this.analysis = analysis;
    }

    /** The normalizer a mapping names, not yet bound to its index's analysis settings. */
    public static KeywordNormalizer named(String name) {
        return new KeywordNormalizer(name, null);
    }

    /** Installs the analysis adapter's resolver (done once, by the adapter's factory). */
    public static void install(Resolver r) {
        resolver = r;
    }

    public String name() {
        return name;
    }

    /** This normalizer bound to {@code settings} (itself when already bound to them). */
    public KeywordNormalizer bind(AnalysisSettings settings) {
        return settings.equals(analysis) ? this : new KeywordNormalizer(name, settings);
    }

    /** {@code value} normalized. */
    public String apply(String value) {
        UnaryOperator<String> f = function;
        if (f == null) {
            f = resolve();
            function = f;
        }
        return f.apply(value);
    }

    private UnaryOperator<String> resolve() {
        Resolver r = resolver;
        if (r != null && analysis != null) {
            return r.normalizer(analysis, name);
        }
        if (name.equals("lowercase") && (analysis == null || !analysis.normalizers().containsKey(name))) {
            return v -> v.toLowerCase(Locale.ROOT);
        }
        throw new IllegalStateException("the normalizer [" + name + "] is not bound to an analysis adapter");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeywordNormalizer k && k.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }
}
