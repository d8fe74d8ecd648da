package io.qdrant.esgateway.domain.index;

import static io.qdrant.esgateway.domain.error.Failures.failure;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.json.Json;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@code normalizer} parameter of keyword fields: parsed, rendered, checked against the index's analysis
 * settings with Elasticsearch's error, fixed once set, bound to the index's analysis settings by its metadata, and
 * applied to the indexed values (the built-in {@code lowercase} needs no analysis adapter).
 */
class KeywordNormalizerTest {
    private static CreateIndexRequest create(String body) {
        return CreateIndexRequest.parse("idx", Json.parse(body));
    }

    @Test
    void theNormalizerIsRenderedAndNormalizesIndexedValuesOfFieldsAndMultiFields() {
        CreateIndexRequest request = create("""
                {"mappings": {"properties": {"tag": {"type": "keyword", "normalizer": "lowercase"},
                  "name": {"type": "text", "fields": {"lower": {"type": "keyword", "normalizer": "lowercase",
                    "ignore_above": 5}}},
                  "raw": {"type": "keyword"}}}}""");
        assertThat(Json.write(request.mappings().toJson())).contains(
                "\"tag\":{\"type\":\"keyword\",\"normalizer\":\"lowercase\"}");
        IndexMetadata index = new IndexMetadata("idx", "u", Instant.EPOCH, request.settings(), request.mappings());
        List<IndexedValue> values = DocumentParser.parse(index.mappings(), Json.parse(
                "{\"tag\": [\"RED\", \"Blue\"], \"raw\": \"RED\", \"name\": [\"ÀB\", \"TOOLONG\"]}"), "1").values();
        assertThat(values).contains(new IndexedValue.Keyword("tag", "red"), new IndexedValue.Keyword("tag", "blue"),
                new IndexedValue.Keyword("raw", "RED"), new IndexedValue.Keyword("name.lower", "àb"))
                .doesNotContain(new IndexedValue.Keyword("name.lower", "toolong"));
    }

    @Test
    void aNormalizerTheIndexLacksFailsAsInElasticsearch() {
        assertThat(failure(ErrorKind.MAPPER_PARSING, () -> create(
                "{\"mappings\": {\"properties\": {\"k\": {\"type\": \"keyword\", \"normalizer\": \"nope\"}}}}"))
                .getMessage()).isEqualTo("Failed to parse mapping: normalizer [nope] not found for field [k]");
        // one the index defines is found
        assertThat(create("{\"settings\": {\"analysis\": {\"normalizer\": {\"n\": {\"type\": \"custom\","
                + " \"filter\": [\"lowercase\"]}}}}, \"mappings\": {\"properties\": {\"k\": {\"type\": \"keyword\","
                + " \"normalizer\": \"n\"}}}}").mappings().field("k")).isPresent();
    }

    @Test
    void theNormalizerCannotChange() {
        Mappings current = Mappings.parse(Json.parse(
                "{\"properties\": {\"k\": {\"type\": \"keyword\", \"normalizer\": \"lowercase\"}}}"));
        assertThat(failure(ErrorKind.ILLEGAL_ARGUMENT, () -> current.merge(Mappings.parse(Json.parse(
                "{\"properties\": {\"k\": {\"type\": \"keyword\"}}}")))).getMessage())
                .isEqualTo("Mapper for [k] conflicts with existing mapper:\n\tCannot update parameter [normalizer]"
                        + " from [lowercase] to [null]");
        assertThat(current.merge(current)).isEqualTo(current);
    }
}
