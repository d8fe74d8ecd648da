package io.qdrant.esgateway.adapter.in.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.application.port.in.ResponseCaching;
import io.qdrant.esgateway.domain.security.Privileges;
import java.util.List;
import org.junit.jupiter.api.Test;

class RouteActionsTest {

    private static List<Route> allRoutes() {
        // an administration whose every call answers null: registering routes only asks it for its parts
        var admin = (io.qdrant.esgateway.application.port.in.IndexAdministration) java.lang.reflect.Proxy
                .newProxyInstance(RouteActionsTest.class.getClassLoader(),
                        new Class<?>[] {io.qdrant.esgateway.application.port.in.IndexAdministration.class},
                        (proxy, method, args) -> null);
        return EsRestApi.router(new EsRestApi.Settings("c", "u", "n", "8.15.0", 1024), admin, null, null, null, null,
                null, null, null, null, () -> "", ResponseCaching.OFF, EsRestApi.Security.OFF, new JsonCodec())
                .routes();
    }

    /** Security refuses an endpoint without a rule to everyone: every registered route must have one. */
    @Test
    void everyRegisteredRouteHasAnAuthorizationRule() {
        List<String> missing = allRoutes().stream().map(Route::api).distinct()
                .filter(api -> RouteActions.of(api).isEmpty()).toList();
        assertThat(missing).as("APIs without a rule in RouteActions").isEmpty();
        assertThat(allRoutes()).extracting(Route::api).contains("search", "bulk", "security.create_api_key");
    }

    @Test
    void indexRulesNameIndexActionsAndClusterRulesClusterActions() {
        for (Route route : allRoutes()) {
            RouteActions.Rule rule = RouteActions.of(route.api()).orElseThrow();
            switch (rule.scope()) {
                case INDEX, BODY -> assertThat(Privileges.isIndexAction(rule.action())).as(route.api()).isTrue();
                case CLUSTER, API_KEY, OWN_PASSWORD, HEALTH, METRICS ->
                        assertThat(Privileges.isIndexAction(rule.action())).as(route.api()).isFalse();
                case AUTHENTICATED -> {
                }
            }
        }
        assertThat(RouteActions.of("search").orElseThrow().action()).isEqualTo("indices:data/read/search");
        assertThat(RouteActions.of("bulk").orElseThrow().action()).isEqualTo("indices:data/write/bulk");
        assertThat(RouteActions.of("indices.create").orElseThrow().action()).isEqualTo("indices:admin/create");
        assertThat(RouteActions.of("cluster.health").orElseThrow().action()).isEqualTo("cluster:monitor/health");
        assertThat(RouteActions.of("no.such.api")).isEmpty();
    }
}
