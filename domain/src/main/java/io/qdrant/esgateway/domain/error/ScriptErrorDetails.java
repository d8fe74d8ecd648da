package io.qdrant.esgateway.domain.error;

import java.util.List;

/**
 * What Elasticsearch reports with a {@code script_exception} next to its reason: the script stack (the snippet of
 * the failing statement and a pointer under the failing position), the script, its language and the position
 * ({@code offset} in the script, {@code start}/{@code end} of the snippet).
 */
public record ScriptErrorDetails(List<String> scriptStack, String script, String lang, int offset, int start,
                                 int end) {
    public ScriptErrorDetails {
        scriptStack = List.copyOf(scriptStack);
    }
}
