package io.qdrant.esgateway.application.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.application.port.in.DocumentOperations.Failed;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteOutcome;
import io.qdrant.esgateway.application.port.in.DocumentOperations.Written;
import io.qdrant.esgateway.application.port.out.InMemoryCatalog;
import io.qdrant.esgateway.application.port.out.InMemoryDocumentStore;
import io.qdrant.esgateway.domain.document.Versioning.Condition;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A dynamic mapping racing another writer's (another replica sharing the catalog): the other writer's mapping change
 * lands between this bulk's planning and its mapping update. Nothing of either is lost; items whose values do not
 * fit the winner's field type fail alone, as Elasticsearch parses them again on the new mapping.
 */
class ConcurrentDynamicMappingTest {
    private final AtomicInteger ids = new AtomicInteger();
    /** Applies {@code racing} (the other replica's change) once, just before this process's first mapping change. */
    private final class RacingCatalog extends InMemoryCatalog {
        Mappings racing;

        @Override
        public synchronized Mappings changeMappings(String index, UnaryOperator<Mappings> change) {
            if (racing != null) {
                Mappings other = racing;
                racing = null;
                super.changeMappings(index, current -> current.merge(other));
            }
            return super.changeMappings(index, change);
        }
    }

    private final RacingCatalog catalog = new RacingCatalog();
    private final InMemoryDocumentStore store = new InMemoryDocumentStore();
    private final IndexAdministrationService admin = new IndexAdministrationService(catalog, store,
            () -> "uuid-" + ids.incrementAndGet(), () -> Instant.EPOCH);
    private final DocumentService service = new DocumentService(catalog, store, admin,
            () -> "gen-" + ids.incrementAndGet(), () -> Instant.EPOCH);

    private static WriteCommand index(String id, String json) {
        return new WriteCommand.Index("i", Optional.of(id), (JsonObject) Json.parse(json.replace('\'', '"')), false,
                Condition.NONE, false);
    }

    @Test
    void differentNewFieldsFromTwoWritersAreBothKept() {
        admin.create(CreateIndexRequest.parse("i", null));
        catalog.racing = Mappings.parse(Json.parse("{\"properties\":{\"other\":{\"type\":\"long\"}}}"));

        List<WriteOutcome> out = service.bulk(List.of(index("1", "{'mine':'text here'}")));

        assertThat(out.get(0)).isInstanceOf(Written.class);
        Mappings mappings = catalog.view().index("i").orElseThrow().mappings();
        assertThat(mappings.field("other")).containsInstanceOf(FieldMapping.NumberField.class);
        assertThat(mappings.field("mine")).containsInstanceOf(FieldMapping.TextField.class);
    }

    @Test
    void givenTheOtherWriterMappedTheFieldFirst_thenOnlyTheItemsThatDoNotFitItsTypeFail() {
        admin.create(CreateIndexRequest.parse("i", null));
        catalog.racing = Mappings.parse(Json.parse("{\"properties\":{\"x\":{\"type\":\"long\"}}}"));

        List<WriteOutcome> out = service.bulk(List.of(index("1", "{'x':'not a number'}"), index("2", "{'x':'12'}"),
                index("3", "{'y':true}")));

        assertThat(out.get(0)).isInstanceOfSatisfying(Failed.class,
                f -> assertThat(f.error().kind()).isEqualTo(ErrorKind.DOCUMENT_PARSING));
        assertThat(out.get(1)).isInstanceOf(Written.class);
        assertThat(out.get(2)).isInstanceOf(Written.class);
        Mappings mappings = catalog.view().index("i").orElseThrow().mappings();
        assertThat(mappings.field("x")).containsInstanceOf(FieldMapping.NumberField.class);
        assertThat(mappings.field("y")).containsInstanceOf(FieldMapping.BooleanField.class);
    }
}
