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

    /** ES's {@code ignore_unavailable}, {@code allow_no_indices} and {@code expand_wildcards} for read requests. */
    static CatalogView.Options indexOptions(EsRequest request, boolean defaultAllowNoIndices) {
        java.util.Optional<String> expand = request.param("expand_wildcards");
        expand.ifPresent(Routes::checkExpandWildcards);
        if (expand.isPresent() && Arrays.stream(expand.get().split(","))
                .noneMatch(v -> v.equals("open") || v.equals("closed") || v.equals("all"))) {
            // Elasticsearch then expands no wildcard at all, as with none
            throw GatewayException.unsupported("[expand_wildcards=" + expand.get() + "] (without open or all)");
        }
        boolean hidden = expand.map(e -> Arrays.stream(e.split(","))
                .anyMatch(v -> v.equals("hidden") || v.equals("all"))).orElse(false);
        return new CatalogView.Options(request.flag("ignore_unavailable", false),
                request.flag("allow_no_indices", defaultAllowNoIndices), hidden);
    }

    /**
     * {@code open} and {@code closed} expand alike (reads of documents leave closed indices out of their wildcards
     * whatever it says); {@code hidden} and {@code all} also expand to hidden indices and aliases; {@code none} (expand
     * nothing) is not implemented and says so.
     */
    static void checkExpandWildcards(String value) {
        for (String v : value.split(",")) {
            switch (v) {
                case "open", "closed", "hidden", "all" -> {
                }
                case "none" -> throw GatewayException.unsupported("[expand_wildcards=none]");
                default -> throw GatewayException.illegalArgument("No enum constant "
                        + "org.elasticsearch.action.support.IndicesOptions.WildcardStates." + v.toUpperCase(
                        java.util.Locale.ROOT));
            }
        }
    }
}
