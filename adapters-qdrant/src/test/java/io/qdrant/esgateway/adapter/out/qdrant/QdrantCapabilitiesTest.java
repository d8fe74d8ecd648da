package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.plan.BackendCapabilities;
import io.qdrant.esgateway.domain.plan.CoverageRules;
import io.qdrant.esgateway.domain.plan.ExecutionPath;
import io.qdrant.esgateway.domain.plan.ExecutionPlan;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import io.qdrant.esgateway.adapter.out.qdrant.filter.QdrantFilterTranslatorTest;

/** What the Qdrant store's declared capabilities send down the native paths, and what they leave to the scan. */
class QdrantCapabilitiesTest {
    private static ExecutionPlan decide(String body, BackendCapabilities capabilities) {
        return CoverageRules.decide("products", SearchRequestParser.parse(Optional.of(Json.parse(body.replace('\'',
                '"'))), Map.of()), QdrantFilterTranslatorTest.INDEX.mappings(), capabilities);
    }

    private static String path(ExecutionPath p) {
        return p instanceof ExecutionPath.Scan s ? "scan:" + s.reason() : "native";
    }

    @Test
    void numericAndDateSortsInTheirDefaultModesAreNativeWithAnyFurtherKeys() {
        BackendCapabilities q = QdrantDocumentStore.CAPABILITIES;
        assertThat(path(decide("{'sort':[{'price':'desc'},{'title.raw':'asc'}]}", q).hits())).isEqualTo("native");
        assertThat(path(decide("{'sort':[{'published':{'order':'asc','missing':'_first'}},'_doc']}", q).hits()))
                .isEqualTo("native");
        assertThat(path(decide("{'sort':[{'count':{'order':'asc','mode':'min','missing':5}}],'search_after':[3]}", q)
                .hits())).isEqualTo("native");
        assertThat(path(decide("{'sort':[{'ratio':'desc'},{'tag':{'missing':'x','mode':'max'}}]}", q).hits()))
                .isEqualTo("native");
        assertThat(path(decide("{'sort':[{'count':{'order':'asc','mode':'max'}}]}", q).hits())).isEqualTo("scan:sort_mode");
        assertThat(path(decide("{'sort':[{'count':{'order':'desc','mode':'avg'}}]}", q).hits())).isEqualTo("scan:sort_mode");
        assertThat(path(decide("{'sort':[{'title.raw':'asc'}]}", q).hits())).isEqualTo("scan:order_kind");
        assertThat(path(decide("{'sort':[{'active':'asc'}]}", q).hits())).isEqualTo("scan:order_kind");
        assertThat(path(decide("{'sort':['_score',{'price':'asc'}]}", q).hits())).isEqualTo("scan:first_key");
        assertThat(path(decide("{'sort':[{'price':'desc'}]}", q.without(Set.of("order"))).hits()))
                .isEqualTo("scan:order_kind");
    }

    @Test
    void countsOnlyTermsOnFacetableFieldsAreNative() {
        BackendCapabilities q = QdrantDocumentStore.CAPABILITIES;
        ExecutionPlan plan = decide("{'size':0,'aggs':{'k':{'terms':{'field':'tag','missing':'m','size':3}},"
                + "'l':{'terms':{'field':'count','order':{'_key':'desc'}}},'b':{'terms':{'field':'active'}},"
                + "'d':{'terms':{'field':'published'}},'f':{'terms':{'field':'price'}},"
                + "'s':{'terms':{'field':'tag'},'aggs':{'m':{'max':{'field':'count'}}}},"
                + "'z':{'terms':{'field':'tag','min_doc_count':0}},'avg':{'avg':{'field':'price'}}}}", q);
        Map<String, ExecutionPath> aggs = plan.aggregations();
        assertThat(Map.of("k", path(aggs.get("k")), "l", path(aggs.get("l")), "b", path(aggs.get("b")),
                "d", path(aggs.get("d")))).allSatisfy((name, p) -> assertThat(p).as(name).isEqualTo("native"));
        for (String scanned : new String[] {"f", "s", "z", "avg"}) {
            assertThat(path(aggs.get(scanned))).as(scanned).isEqualTo("scan:facet_shape");
        }
        assertThat(path(decide("{'size':0,'aggs':{'k':{'terms':{'field':'tag'}}}}", q.without(Set.of("facet")))
                .aggregations().get("k"))).isEqualTo("scan:facet");
    }
}
