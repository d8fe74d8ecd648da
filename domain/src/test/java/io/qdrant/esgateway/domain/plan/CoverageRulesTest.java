package io.qdrant.esgateway.domain.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.aggregation.FieldRef.ValueKind;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CoverageRulesTest {
    private static final Mappings MAPPINGS = Mappings.parse(Json.parse("""
            {"properties":{"k":{"type":"keyword"},"l":{"type":"long"},"d":{"type":"double"},"t":{"type":"text"}}}"""));

    private static SearchRequest request(String body) {
        return SearchRequestParser.parse(Optional.of(Json.parse(body.replace('\'', '"'))), Map.of());
    }

    private static ExecutionPlan decide(String body, BackendCapabilities capabilities) {
        return CoverageRules.decide("idx", request(body), MAPPINGS, capabilities);
    }

    @Test
    void everythingIsNativeWhenTheBackendCoversEverything() {
        ExecutionPlan plan = decide("{'sort':[{'l':{'mode':'avg'}},'k'],'aggs':{'a':{'terms':{'field':'k'}}}}",
                BackendCapabilities.everything());
        assertThat(plan.scans()).isFalse();
        assertThat(plan.hits()).isEqualTo(ExecutionPath.NATIVE);
        assertThat(plan.aggregations()).containsEntry("a", ExecutionPath.NATIVE);
    }

    @Test
    void eachAbsentCapabilitySendsItsPartToTheScanWithAReason() {
        BackendCapabilities none = BackendCapabilities.everything().without(Set.of("all"));
        ExecutionPlan plan = decide("{'sort':['k'],'aggs':{'a':{'avg':{'field':'l'}}}}", none);
        assertThat(plan.hits()).isInstanceOfSatisfying(ExecutionPath.Scan.class,
                s -> assertThat(s.reason()).isEqualTo("order_kind"));
        assertThat(plan.total()).isInstanceOfSatisfying(ExecutionPath.Scan.class,
                s -> assertThat(s.reason()).isEqualTo("count"));
        assertThat(plan.aggregations().get("a")).isInstanceOfSatisfying(ExecutionPath.Scan.class,
                s -> assertThat(s.reason()).isEqualTo("facet"));

        ExecutionPlan orderOnly = decide("{'sort':['k'],'aggs':{'a':{'avg':{'field':'l'}}}}",
                BackendCapabilities.everything().without(Set.of("order")));
        assertThat(orderOnly.hits()).isInstanceOf(ExecutionPath.Scan.class);
        assertThat(orderOnly.total()).isEqualTo(ExecutionPath.NATIVE);
        assertThat(orderOnly.aggregations().get("a")).isEqualTo(ExecutionPath.NATIVE);
    }

    @Test
    void relevanceOrderAndPagelessRequestsNeedNoFieldOrdering() {
        BackendCapabilities none = BackendCapabilities.everything().without(Set.of("order"));
        assertThat(decide("{'query':{'match':{'t':'x'}}}", none).hits()).isEqualTo(ExecutionPath.NATIVE);
        assertThat(decide("{'sort':['_doc',{'_score':'asc'}]}", none).hits()).isEqualTo(ExecutionPath.NATIVE);
        assertThat(decide("{'size':0,'sort':['k']}", none).hits()).isEqualTo(ExecutionPath.NATIVE);
    }

    @Test
    void qdrantLikeOrderingIsExcludedForEveryReason() {
        Set<ValueKind> numbers = EnumSet.of(ValueKind.LONG, ValueKind.DOUBLE);
        BackendCapabilities repeats = new BackendCapabilities(numbers, Set.of(), true, numbers, true, true, false, false);
        assertThat(((ExecutionPath.Scan) decide("{'sort':['k']}", repeats).hits()).reason()).isEqualTo("order_kind");
        assertThat(((ExecutionPath.Scan) decide("{'sort':[{'l':{'mode':'sum'}}]}", repeats).hits()).reason())
                .isEqualTo("sort_mode");
        assertThat(((ExecutionPath.Scan) decide("{'sort':['l']}", repeats).hits()).reason())
                .isEqualTo("multi_valued_order");
        BackendCapabilities dropsMissing = new BackendCapabilities(numbers, Set.of(), true, numbers, true, false, false, true);
        assertThat(((ExecutionPath.Scan) decide("{'sort':['l']}", dropsMissing).hits()).reason())
                .isEqualTo("missing_values");
        BackendCapabilities ties = new BackendCapabilities(numbers, Set.of(), true, numbers, true, false, true, false);
        assertThat(((ExecutionPath.Scan) decide("{'sort':['d']}", ties).hits()).reason()).isEqualTo("tie_order");
        assertThat(((ExecutionPath.Scan) decide("{'aggs':{'a':{'terms':{'field':'k'}}}}", ties)
                .aggregations().get("a")).reason()).isEqualTo("facet_kind");
        // a sub-aggregation's field counts too
        assertThat(decide("{'aggs':{'a':{'terms':{'field':'l'},'aggs':{'b':{'value_count':{'field':'k'}}}}}}", ties)
                .aggregations().get("a")).isInstanceOf(ExecutionPath.Scan.class);
    }

    @Test
    void luceneLikeGapsScanOnlyTheShapesTheyCannotDo() {
        Set<ValueKind> all = EnumSet.complementOf(EnumSet.of(ValueKind.UNMAPPED));
        BackendCapabilities lucene = new BackendCapabilities(all, EnumSet.of(ValueKind.LONG, ValueKind.DOUBLE), false,
                all, true, false, true, true);
        assertThat(((ExecutionPath.Scan) decide("{'sort':[{'k':{'missing':'m'}}]}", lucene).hits()).reason())
                .isEqualTo("keyword_missing");
        assertThat(decide("{'sort':[{'k':{'missing':'_first'}}]}", lucene).hits()).isEqualTo(ExecutionPath.NATIVE);
        assertThat(decide("{'sort':[{'l':{'mode':'median'}}]}", lucene).hits()).isEqualTo(ExecutionPath.NATIVE);
    }

    @Test
    void qdrantLikeFacetsAndFirstValueOrderAreNativeOnlyForTheirShapes() {
        Set<ValueKind> numbers = EnumSet.of(ValueKind.LONG, ValueKind.DOUBLE);
        BackendCapabilities qdrant = new BackendCapabilities(numbers, Set.of(), false, Set.of(), true, false, true,
                true, EnumSet.of(ValueKind.KEYWORD), true);
        ExecutionPlan plan = decide("{'aggs':{'a':{'terms':{'field':'k','size':3,'missing':'m','order':{'_key':'asc'}}},"
                + "'b':{'terms':{'field':'k'},'aggs':{'c':{'max':{'field':'l'}}}},'c':{'terms':{'field':'l'}},"
                + "'d':{'terms':{'field':'k','min_doc_count':0}},'e':{'avg':{'field':'l'}}}}", qdrant);
        assertThat(plan.aggregations().get("a")).isEqualTo(ExecutionPath.NATIVE);
        for (String scanned : List.of("b", "c", "d", "e")) {
            assertThat(((ExecutionPath.Scan) plan.aggregations().get(scanned)).reason()).as(scanned)
                    .isEqualTo("facet_shape");
        }
        // the facet switch turns the counts path off too
        assertThat(((ExecutionPath.Scan) decide("{'aggs':{'a':{'terms':{'field':'k'}}}}",
                qdrant.without(Set.of("facet"))).aggregations().get("a")).reason()).isEqualTo("facet");
        // the first key in its default mode (asc: min, desc: max) is native, with any further keys; others scan
        assertThat(decide("{'sort':[{'l':'desc'},{'d':{'order':'desc','mode':'min'}},'k',{'l':{'mode':'avg'}}]}",
                qdrant).hits()).isEqualTo(ExecutionPath.NATIVE);
        assertThat(((ExecutionPath.Scan) decide("{'sort':['_score',{'l':'desc'}]}", qdrant).hits()).reason())
                .isEqualTo("first_key");
        assertThat(decide("{'sort':['_score','_doc']}", qdrant).hits()).isEqualTo(ExecutionPath.NATIVE);
        assertThat(((ExecutionPath.Scan) decide("{'sort':['k',{'l':'desc'}]}", qdrant).hits()).reason())
                .isEqualTo("order_kind");
        assertThat(((ExecutionPath.Scan) decide("{'sort':[{'l':{'order':'asc','mode':'max'}}]}", qdrant).hits())
                .reason()).isEqualTo("sort_mode");
        assertThat(((ExecutionPath.Scan) decide("{'sort':[{'d':{'order':'desc','mode':'min'}}]}", qdrant).hits())
                .reason()).isEqualTo("sort_mode");
        assertThat(((ExecutionPath.Scan) decide("{'sort':[{'l':'desc'}]}", qdrant.without(Set.of("order")))
                .hits()).reason()).isEqualTo("order_kind");
    }

    @Test
    void fieldsThatCannotBeSortedLeaveTheErrorToTheNativePath() {
        BackendCapabilities none = BackendCapabilities.everything().without(Set.of("all"));
        assertThat(decide("{'sort':['t']}", none).hits()).isEqualTo(ExecutionPath.NATIVE);
    }

    @Test
    void unknownSwitchesAreRefused() {
        assertThatThrownBy(() -> BackendCapabilities.everything().without(Set.of("sorting")))
                .hasMessageContaining("unknown native capability [sorting]");
    }
}
