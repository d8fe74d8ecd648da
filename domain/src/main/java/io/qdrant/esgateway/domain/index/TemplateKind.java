package io.qdrant.esgateway.domain.index;

/** The two kinds of composable templates the catalog keeps, each in its own name space. */
public enum TemplateKind {
    /** {@code /_index_template}: index patterns, a priority, component templates and an own template. */
    INDEX,
    /** {@code /_component_template}: a reusable block of settings, mappings and aliases. */
    COMPONENT
}
