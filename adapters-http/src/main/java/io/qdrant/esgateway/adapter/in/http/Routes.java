package io.qdrant.esgateway.adapter.in.http;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.Collectors;

/** Small helpers the endpoint classes share to declare routes and read common URL parameters. */
final class Routes {
    static final JsonValue ACKNOWLEDGED = JsonObjectBuilder.object().put("acknowledged", true).build();
    /** URL parameters of requests that read indices through an expression. */
    static final String INDEX_OPTIONS = "ignore_unavailable,allow_no_indices,expand_wildcards";

    private Routes() {
    }

    static Route route(String methods, String pattern, String api, String params, boolean takesBody,
                       Route.Handler handler) {
        return new Route(set(methods), pattern, api, set(params), takesBody, handler);
    }

    private static Set<String> set(String commaList) {
        return Arrays.stream(commaList.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    /**
     * ES's {@code ignore_unavailable}, {@code allow_no_indices} and {@code expand_wildcards} for read requests:
     * wildcards expand to open indices unless {@code expand_wildcards} says otherwise.
     */
    static CatalogView.Options indexOptions(EsRequest request, boolean defaultAllowNoIndices) {
        return indexOptions(request, defaultAllowNoIndices, false);
    }

    /**
     * As {@link #indexOptions(EsRequest, boolean)}; without {@code expand_wildcards}, wildcards expand to closed
     * indices too when {@code defaultClosed} (the API's default in Elasticsearch is {@code open,closed}).
     */
    static CatalogView.Options indexOptions(EsRequest request, boolean defaultAllowNoIndices, boolean defaultClosed) {
        java.util.Optional<String> expand = request.param("expand_wildcards");
        expand.ifPresent(Routes::checkExpandWildcards);
        java.util.Set<String> states = expand.map(e -> set(e)).orElse(java.util.Set.of());
        boolean all = states.contains("all");
        boolean hidden = all || states.contains("hidden");
        boolean open = expand.isEmpty() || all || states.contains("open");
        boolean closed = expand.isEmpty() ? defaultClosed : all || states.contains("closed");
        return new CatalogView.Options(request.flag("ignore_unavailable", false),
                request.flag("allow_no_indices", defaultAllowNoIndices), hidden, open, closed);
    }

    /**
     * {@code open}, {@code closed}, {@code hidden}, {@code all} and {@code none} (expand nothing: a wildcard is then
     * a name no index has); any other value is Elasticsearch's error.
     */
    static void checkExpandWildcards(String value) {
        checkExpandWildcards(value, true);
    }

    /**
     * As {@link #checkExpandWildcards(String)} for an API that does not apply the value: {@code none} (which would
     * leave every wildcard unexpanded) is then refused as not implemented rather than ignored.
     */
    static void checkIgnoredExpandWildcards(String value) {
        checkExpandWildcards(value, false);
    }

    private static void checkExpandWildcards(String value, boolean noneApplied) {
        for (String v : value.split(",")) {
            switch (v) {
                case "open", "closed", "hidden", "all", "none" -> {
                }
                default -> throw GatewayException.illegalArgument("No enum constant "
                        + "org.elasticsearch.action.support.IndicesOptions.WildcardStates." + v.toUpperCase(
                        java.util.Locale.ROOT));
            }
        }
        if (!noneApplied && set(value).contains("none")) {
            throw GatewayException.unsupported("[expand_wildcards=none]");
        }
    }
}
