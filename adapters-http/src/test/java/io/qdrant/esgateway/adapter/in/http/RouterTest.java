package io.qdrant.esgateway.adapter.in.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

class RouterTest {
    private static Route route(String methods, String pattern, String api) {
        return Routes.route(methods, pattern, api, "timeout", false, r -> EsResponse.empty(200));
    }

    private final Router router = new Router()
            .add(route("PUT", "/{index}", "indices.create"))
            .add(route("GET", "/{index}", "indices.get"))
            .add(route("GET", "/_alias/{name}", "indices.get_alias"))
            .add(route("GET", "/{index}/_alias/{name}", "indices.get_alias"))
            .add(route("POST", "/_aliases", "indices.update_aliases"))
            .add(route("GET", "/metrics", "gateway.metrics"));

    private String api(String method, String path) {
        return switch (router.resolve(method, path)) {
            case Router.Matched m -> m.route().api() + m.pathParams();
            case Router.NoRoute n -> n.status() + " " + n.message();
        };
    }

    @Test
    void literalSegmentsBeatParameters() {
        assertThat(api("GET", "/_alias/a")).isEqualTo("indices.get_alias{name=a}");
        assertThat(api("GET", "/books/_alias/a")).isEqualTo("indices.get_alias{index=books, name=a}");
        assertThat(api("GET", "/metrics")).isEqualTo("gateway.metrics{}");
    }

    @Test
    void aPathServedForOtherMethodsFallsBackToAParameterRouteThatTakesTheMethod() {
        assertThat(api("PUT", "/metrics")).isEqualTo("indices.create{index=metrics}");
    }

    @Test
    void anApiPathWithoutTheMethodIs405RatherThanAnIndexName() {
        // no index name starts with '_': Elasticsearch answers 405 with the literal path's methods
        assertThat(api("PUT", "/_aliases"))
                .isEqualTo("405 Incorrect HTTP method for uri [/_aliases] and method [PUT], allowed: [POST]");
        assertThat(router.resolve("PUT", "/_aliases")).isInstanceOfSatisfying(Router.NoRoute.class,
                n -> assertThat(n.allow()).isEqualTo("POST"));
        assertThat(new Router().add(route("GET", "/", "info")).add(route("PUT", "/{index}", "indices.create"))
                .resolve("PATCH", "/")).isInstanceOfSatisfying(Router.NoRoute.class,
                n -> assertThat(n.allow()).isEqualTo("GET"));
        // the methods of the index routes are not listed
        assertThat(router.resolve("DELETE", "/_aliases")).isInstanceOfSatisfying(Router.NoRoute.class,
                n -> assertThat(n.allow()).isEqualTo("POST"));
    }

    @Test
    void wrongMethodIs405AndUnknownPathIs400() {
        assertThat(api("DELETE", "/_alias/a"))
                .isEqualTo("405 Incorrect HTTP method for uri [/_alias/a] and method [DELETE], allowed: [GET]");
        assertThat(api("GET", "/a/b/c/d")).isEqualTo("400 no handler found for uri [/a/b/c/d] and method [GET]");
    }

    @Test
    void pathSegmentsArePercentDecodedButPlusStaysPlus() {
        assertThat(api("GET", "/logs-%2A")).isEqualTo("indices.get{index=logs-*}");
        assertThat(api("GET", "/a+b")).isEqualTo("indices.get{index=a+b}");
    }

    @Test
    void emptySegmentsAreIgnored() {
        assertThat(Router.split("//books///_alias/a/")).containsExactly("books", "_alias", "a");
        assertThat(Router.split("/")).isEmpty();
        assertThat(Router.split("")).isEmpty();
        assertThat(api("GET", "//books//_alias/a")).isEqualTo("indices.get_alias{index=books, name=a}");
    }

    @Test
    void unknownUrlParametersAreNamedSorted() {
        Route r = route("GET", "/x", "x");
        Router.checkParams(r, "/x", Set.of("timeout", "pretty"));
        assertThatThrownBy(() -> Router.checkParams(r, "/x", Set.of("zeta", "alpha", "timeout")))
                .hasMessage("request [/x] contains unrecognized parameters: [alpha], [zeta]");
        assertThatThrownBy(() -> Router.checkParams(r, "/x", Set.of("size")))
                .hasMessage("request [/x] contains unrecognized parameter: [size]");
    }

    @Test
    void queryStringsDecodeAndKeepTheFirstValue() {
        assertThat(EsHttpHandler.parseQuery("a=1&b&c=x%20y&a=2&d=a%2Bb"))
                .containsExactly(java.util.Map.entry("a", "1"), java.util.Map.entry("b", ""),
                        java.util.Map.entry("c", "x y"), java.util.Map.entry("d", "a+b"));
    }
}
