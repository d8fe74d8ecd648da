package io.qdrant.esgateway.domain.query;

/**
 * A query string parsed once, when the request is read ({@link Query.QueryString}): its query tree without the
 * query's boost, or the error its syntax gives, thrown where the tree is used, so a bad query string fails where a
 * search would have parsed it. Derived from the query string's own components, so it takes no part in equality.
 */
public final class ParsedQueryString {
    private final Query tree;
    private final RuntimeException failure;
    /** A {@code simple_query_string} that does not parse: it matches nothing. */
    private final boolean unparsable;

    ParsedQueryString(Query tree, RuntimeException failure, boolean unparsable) {
        this.tree = tree;
        this.failure = failure;
        this.unparsable = unparsable;
    }

    /** The query tree, without the query's boost; throws the syntax error when the string has one. */
    public Query tree() {
        if (failure != null) {
            throw failure;
        }
        return tree;
    }

    /** Whether this is a {@code simple_query_string} that did not parse (its tree matches nothing). */
    boolean unparsable() {
        return unparsable;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ParsedQueryString;
    }

    @Override
    public int hashCode() {
        return 0;
    }

    @Override
    public String toString() {
        return failure != null ? "unparsable: " + failure.getMessage() : String.valueOf(tree);
    }
}
