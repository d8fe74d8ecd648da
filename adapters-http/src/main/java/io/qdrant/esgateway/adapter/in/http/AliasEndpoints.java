package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.INDEX_OPTIONS;
import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.IndexAdministration;
import io.qdrant.esgateway.domain.index.AliasActions;
import io.qdrant.esgateway.domain.index.AliasMetadata;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexName;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The alias endpoints: one atomic batch ({@code POST /_aliases}), single add/remove, and the listings.
 *
 * <pre>
 * curl -XPOST localhost:9200/_aliases -H 'Content-Type: application/json' \
 *      -d '{"actions":[{"add":{"index":"books-v1","alias":"books"}}]}'
 * curl localhost:9200/_alias/books
 * </pre>
 */
final class AliasEndpoints {
    private static final String READ_PARAMS = INDEX_OPTIONS + ",local,master_timeout";
    private final IndexAdministration admin;

    AliasEndpoints(IndexAdministration admin) {
        this.admin = admin;
    }

    void register(Router router) {
        router.add(route("POST", "/_aliases", "indices.update_aliases", "timeout,master_timeout", true, this::update));
        for (String segment : List.of("_alias", "_aliases")) {
            router.add(route("PUT,POST", "/{index}/" + segment + "/{name}", "indices.put_alias",
                            "timeout,master_timeout", true, this::put))
                    .add(route("DELETE", "/{index}/" + segment + "/{name}", "indices.delete_alias",
                            "timeout,master_timeout", false, this::delete))
                    // the forms whose body names the index, the alias, or both (ES 8.15's put-alias handler)
                    .add(route("PUT,POST", "/" + segment + "/{name}", "indices.put_alias",
                            "timeout,master_timeout", true, this::put))
                    .add(route("PUT", "/{index}/" + segment, "indices.put_alias",
                            "timeout,master_timeout", true, this::put));
        }
        router.add(route("PUT", "/_alias", "indices.put_alias", "timeout,master_timeout", true, this::put));
        router.add(route("GET", "/_alias", "indices.get_alias", READ_PARAMS, false, this::get))
                .add(route("GET", "/_aliases", "indices.get_alias", READ_PARAMS, false, this::get))
                .add(route("HEAD", "/{index}/_alias", "indices.exists_alias", READ_PARAMS, false, this::exists))
                .add(route("GET", "/_alias/{name}", "indices.get_alias", READ_PARAMS, false, this::get))
                .add(route("GET", "/{index}/_alias", "indices.get_alias", READ_PARAMS, false, this::get))
                .add(route("GET", "/{index}/_alias/{name}", "indices.get_alias", READ_PARAMS, false, this::get))
                .add(route("HEAD", "/_alias/{name}", "indices.exists_alias", READ_PARAMS, false, this::exists))
                .add(route("HEAD", "/{index}/_alias/{name}", "indices.exists_alias", READ_PARAMS, false,
                        this::exists));
    }

    /** Elasticsearch 8.15 answers every alias change, single or batch, with this body. */
    private static EsResponse acknowledged() {
        return EsResponse.ok(JsonObjectBuilder.object().put("acknowledged", true).put("errors", false).build());
    }

    private EsResponse update(EsRequest request) {
        admin.updateAliases(AliasActions.parse(request.body().orElse(null)));
        return acknowledged();
    }

    private EsResponse put(EsRequest request) {
        admin.updateAliases(List.of(AliasActions.add(request.optionalPathParam("index").orElse(null),
                request.optionalPathParam("name").orElse(null), request.body().orElse(null))));
        return acknowledged();
    }

    private EsResponse delete(EsRequest request) {
        admin.updateAliases(List.of(AliasActions.remove(request.pathParam("index"), request.pathParam("name"))));
        return acknowledged();
    }

    /** Indices with their matching aliases, and the explicitly named aliases that matched nothing. */
    private record Listing(List<IndexMetadata> indices, CatalogView view, List<String> missing, Optional<String> names) {
        List<AliasMetadata> matching(IndexMetadata index) {
            return view.aliasesOf(index.name()).stream().filter(a -> names.isEmpty() || matches(names.get(), a))
                    .toList();
        }

        static boolean matches(String names, AliasMetadata alias) {
            for (String p : names.split(",")) {
                if (p.equals("_all") || IndexName.matches(p, alias.alias())) {
                    return true;
                }
            }
            return false;
        }
    }

    private Listing list(EsRequest request) {
        CatalogView view = admin.catalog();
        CatalogView.Options options = Routes.indexOptions(request, true);
        if (request.param("expand_wildcards").isEmpty()) {
            // alias reads expand to hidden and closed indices unless told otherwise, as in Elasticsearch
            options = options.withHidden(true).withStates(true, true);
        }
        List<IndexMetadata> indices = view.resolve(request.optionalPathParam("index").orElse("_all"), options);
        Optional<String> names = request.optionalPathParam("name");
        List<String> missing = new ArrayList<>();
        names.ifPresent(n -> {
            for (String p : n.split(",")) {
                if (p.equals("_all") || IndexName.isWildcard(p)) {
                    continue;
                }
                boolean found = indices.stream().anyMatch(i -> view.aliasesOf(i.name()).stream()
                        .anyMatch(a -> a.alias().equals(p)));
                if (!found) {
                    missing.add(p);
                }
            }
        });
        return new Listing(indices, view, missing, names);
    }

    private EsResponse get(EsRequest request) {
        Listing listing = list(request);
        JsonObjectBuilder out = JsonObjectBuilder.object();
        for (IndexMetadata index : listing.indices()) {
            List<AliasMetadata> aliases = listing.matching(index);
            if (listing.names().isEmpty() || !aliases.isEmpty()) {
                out.put(index.name(), JsonObjectBuilder.object().put("aliases", IndexEndpoints.aliases(aliases)));
            }
        }
        if (listing.missing().isEmpty()) {
            return EsResponse.ok(out.build());
        }
        String what = listing.missing().size() == 1 ? "alias [" : "aliases [";
        out.put("error", what + String.join(",", listing.missing()) + "] missing").put("status", 404);
        return EsResponse.json(404, out.build());
    }

    private EsResponse exists(EsRequest request) {
        Listing listing = list(request);
        // without alias names, as Elasticsearch: found whenever the indices resolve, with or without aliases
        boolean any = listing.names().isEmpty()
                || listing.indices().stream().anyMatch(i -> !listing.matching(i).isEmpty());
        // a JSON answer, so HEAD carries Elasticsearch's Content-Type: application/json (the body is not sent)
        return EsResponse.json(any && listing.missing().isEmpty() ? 200 : 404, JsonObjectBuilder.object().build());
    }
}
