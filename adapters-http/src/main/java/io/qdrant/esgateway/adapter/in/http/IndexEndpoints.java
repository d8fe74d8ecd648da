package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.ACKNOWLEDGED;
import static io.qdrant.esgateway.adapter.in.http.Routes.INDEX_OPTIONS;
import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.IndexAdministration;
import io.qdrant.esgateway.application.port.in.IndexAdministration.IndexDescription;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.AliasMetadata;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.List;
import java.util.Set;

/**
 * The index lifecycle endpoints.
 *
 * <pre>
 * curl -XPUT localhost:9200/books -H 'Content-Type: application/json' -d '{"mappings":{"properties":{"title":{"type":"text"}}}}'
 * curl localhost:9200/books/_mapping
 * curl -XDELETE localhost:9200/books
 * </pre>
 */
final class IndexEndpoints {
    private static final String PUT_SETTINGS_PARAMS = Routes.INDEX_OPTIONS
            + ",master_timeout,timeout,flat_settings,preserve_existing,reopen";
    private static final Set<String> FEATURES = Set.of("aliases", "mappings", "settings");
    private final IndexAdministration admin;

    IndexEndpoints(IndexAdministration admin) {
        this.admin = admin;
    }

    void register(Router router) {
        router.add(route("PUT", "/{index}", "indices.create", "wait_for_active_shards,timeout,master_timeout", true,
                        this::create))
                .add(route("DELETE", "/{index}", "indices.delete", INDEX_OPTIONS + ",timeout,master_timeout", false,
                        this::delete))
                .add(route("HEAD", "/{index}", "indices.exists",
                        INDEX_OPTIONS + ",local,flat_settings,include_defaults", false, this::exists))
                .add(route("GET", "/{index}", "indices.get",
                        INDEX_OPTIONS + ",local,flat_settings,include_defaults,features,master_timeout", false,
                        this::get))
                .add(route("GET", "/_mapping", "indices.get_mapping", INDEX_OPTIONS + ",local,master_timeout", false,
                        this::getMapping))
                .add(route("GET", "/{index}/_mapping", "indices.get_mapping", INDEX_OPTIONS + ",local,master_timeout",
                        false, this::getMapping))
                .add(route("GET", "/_mapping/field/{fields}", "indices.get_field_mapping",
                        INDEX_OPTIONS + ",local,include_defaults", false, this::getFieldMapping))
                .add(route("GET", "/{index}/_mapping/field/{fields}", "indices.get_field_mapping",
                        INDEX_OPTIONS + ",local,include_defaults", false, this::getFieldMapping))
                .add(route("PUT,POST", "/{index}/_mapping", "indices.put_mapping",
                        INDEX_OPTIONS + ",timeout,master_timeout,write_index_only", true, this::putMapping))
                .add(route("GET", "/_settings", "indices.get_settings",
                        INDEX_OPTIONS + ",local,flat_settings,include_defaults,master_timeout", false,
                        this::getSettings))
                .add(route("GET", "/{index}/_settings", "indices.get_settings",
                        INDEX_OPTIONS + ",local,flat_settings,include_defaults,master_timeout", false,
                        this::getSettings))
                .add(route("PUT", "/_settings", "indices.put_settings", PUT_SETTINGS_PARAMS, true, this::putSettings))
                .add(route("PUT", "/{index}/_settings", "indices.put_settings", PUT_SETTINGS_PARAMS, true,
                        this::putSettings))
                .add(route("PUT", "/{index}/_block/{block}", "indices.add_block",
                        INDEX_OPTIONS + ",timeout,master_timeout", false, this::addBlock))
                .add(route("GET,POST", "/_refresh", "indices.refresh", INDEX_OPTIONS, false, this::refresh))
                .add(route("GET,POST", "/{index}/_refresh", "indices.refresh", INDEX_OPTIONS, false, this::refresh))
                .add(route("POST", "/{index}/_close", "indices.close", INDEX_OPTIONS
                        + ",timeout,master_timeout,wait_for_active_shards", false, this::close))
                .add(route("POST", "/{index}/_open", "indices.open", INDEX_OPTIONS
                        + ",timeout,master_timeout,wait_for_active_shards", false, this::open));
    }

    private EsResponse create(EsRequest request) {
        String name = request.pathParam("index");
        IndexMetadata index = admin.create(name, request.body().orElse(null));
        return EsResponse.ok(JsonObjectBuilder.object().put("acknowledged", true).put("shards_acknowledged", true)
                .put("index", index.name()).build());
    }

    private EsResponse delete(EsRequest request) {
        io.qdrant.esgateway.domain.index.CatalogView.Options options = Routes.indexOptions(request, false);
        admin.delete(request.pathParam("index"), options.ignoreUnavailable());
        return EsResponse.ok(ACKNOWLEDGED);
    }

    private EsResponse exists(EsRequest request) {
        Routes.indexOptions(request, true);
        // a JSON answer, so HEAD carries Elasticsearch's Content-Type: application/json (the body is not sent)
        return EsResponse.json(admin.exists(request.pathParam("index")) ? 200 : 404,
                JsonObjectBuilder.object().build());
    }

    private EsResponse get(EsRequest request) {
        Set<String> features = features(request);
        boolean flat = request.flag("flat_settings", false);
        noDefaults(request);
        JsonObjectBuilder out = JsonObjectBuilder.object();
        for (IndexDescription d : describe(request)) {
            // Elasticsearch 8.15 renders all three keys; a feature that was not asked for is an empty object
            JsonObjectBuilder empty = JsonObjectBuilder.object();
            JsonObjectBuilder body = JsonObjectBuilder.object()
                    .put("aliases", features.contains("aliases") ? aliases(d.aliases()) : empty.build())
                    .put("mappings", features.contains("mappings") ? d.index().mappings().toJson() : empty.build())
                    .put("settings", features.contains("settings") ? d.index().settingsJson(flat) : empty.build());
            out.put(d.index().name(), body);
        }
        return EsResponse.ok(out.build());
    }

    private EsResponse getMapping(EsRequest request) {
        JsonObjectBuilder out = JsonObjectBuilder.object();
        for (IndexDescription d : describe(request)) {
            out.put(d.index().name(), JsonObjectBuilder.object().put("mappings", d.index().mappings().toJson()));
        }
        return EsResponse.ok(out.build());
    }

    private EsResponse getFieldMapping(EsRequest request) {
        noDefaults(request);
        List<String> patterns = List.of(request.pathParam("fields").split(","));
        JsonObjectBuilder out = JsonObjectBuilder.object();
        for (IndexDescription d : describe(request)) {
            out.put(d.index().name(), JsonObjectBuilder.object()
                    .put("mappings", FieldMappingView.of(d.index().mappings(), patterns)).build());
        }
        return EsResponse.ok(out.build());
    }

    private EsResponse putMapping(EsRequest request) {
        io.qdrant.esgateway.domain.index.CatalogView.Options options = Routes.indexOptions(request, false, true);
        if (request.flag("write_index_only", false)) {
            throw GatewayException.unsupported("[write_index_only=true]");
        }
        admin.putMapping(request.pathParam("index"), Mappings.parse(request.requiredBody()), options);
        return EsResponse.ok(ACKNOWLEDGED);
    }

    private EsResponse getSettings(EsRequest request) {
        boolean flat = request.flag("flat_settings", false);
        noDefaults(request);
        JsonObjectBuilder out = JsonObjectBuilder.object();
        for (IndexDescription d : describe(request)) {
            out.put(d.index().name(), JsonObjectBuilder.object().put("settings", d.index().settingsJson(flat)));
        }
        return EsResponse.ok(out.build());
    }

    private EsResponse putSettings(EsRequest request) {
        io.qdrant.esgateway.domain.index.CatalogView.Options options = Routes.indexOptions(request, false, true);
        if (request.flag("preserve_existing", false) || request.flag("reopen", false)) {
            throw GatewayException.unsupported("[preserve_existing] and [reopen] in PUT _settings");
        }
        admin.putSettings(request.optionalPathParam("index").orElse("_all"), request.requiredBody(), options);
        return EsResponse.ok(ACKNOWLEDGED);
    }

    /** {@code PUT /{index}/_block/{block}}: sets {@code index.blocks.<block>: true} on every index named. */
    private EsResponse addBlock(EsRequest request) {
        Routes.indexOptions(request, false);
        String setting = io.qdrant.esgateway.domain.index.IndexBlocks.settingOf(request.pathParam("block"));
        List<IndexMetadata> blocked = admin.putSettings(request.pathParam("index"),
                JsonObjectBuilder.object().put(setting, true).build());
        List<JsonValue> indices = new java.util.ArrayList<>();
        blocked.forEach(i -> indices.add(JsonObjectBuilder.object().put("name", i.name()).put("blocked", true).build()));
        return EsResponse.ok(JsonObjectBuilder.object().put("acknowledged", true).put("shards_acknowledged", true)
                .put("indices", new JsonValue.JsonArray(indices)).build());
    }

    private EsResponse refresh(EsRequest request) {
        int n = admin.refresh(request.optionalPathParam("index").orElse("_all"),
                Routes.indexOptions(request, true)).size();
        JsonObjectBuilder shards = JsonObjectBuilder.object().put("total", n).put("successful", n).put("failed", 0);
        return EsResponse.ok(JsonObjectBuilder.object().put("_shards", shards).build());
    }

    private EsResponse close(EsRequest request) {
        List<IndexMetadata> closed = admin.close(request.pathParam("index"), Routes.indexOptions(request, false));
        JsonObjectBuilder indices = JsonObjectBuilder.object();
        closed.forEach(i -> indices.put(i.name(), JsonObjectBuilder.object().put("closed", true)));
        // Elasticsearch acknowledges no shards when every index was closed already
        return EsResponse.ok(JsonObjectBuilder.object().put("acknowledged", true)
                .put("shards_acknowledged", !closed.isEmpty()).put("indices", indices).build());
    }

    private EsResponse open(EsRequest request) {
        admin.open(request.pathParam("index"), Routes.indexOptions(request, true));
        return EsResponse.ok(JsonObjectBuilder.object().put("acknowledged", true).put("shards_acknowledged", true)
                .build());
    }

    /** The indices an index-metadata read names; refused on one with a {@code metadata} block. */
    private List<IndexDescription> describe(EsRequest request) {
        List<IndexDescription> described = admin.describe(request.optionalPathParam("index").orElse("_all"),
                Routes.indexOptions(request, true));
        described.forEach(d -> io.qdrant.esgateway.domain.index.IndexBlocks.check(d.index(),
                io.qdrant.esgateway.domain.index.IndexBlocks.Level.METADATA_READ));
        return described;
    }

    private static void noDefaults(EsRequest request) {
        if (request.flag("include_defaults", false)) {
            throw GatewayException.unsupported("[include_defaults=true]");
        }
    }

    private static Set<String> features(EsRequest request) {
        return request.param("features").map(f -> {
            Set<String> out = new java.util.LinkedHashSet<>();
            for (String s : f.split(",")) {
                if (!FEATURES.contains(s)) {
                    throw GatewayException.illegalArgument("Invalid features specified [" + s
                            + "]; must be one of [aliases, mappings, settings]");
                }
                out.add(s);
            }
            return out;
        }).orElse(FEATURES);
    }

    static JsonValue aliases(List<AliasMetadata> aliases) {
        JsonObjectBuilder b = JsonObjectBuilder.object();
        aliases.forEach(a -> b.put(a.alias(), a.toJson()));
        return b.build();
    }
}
