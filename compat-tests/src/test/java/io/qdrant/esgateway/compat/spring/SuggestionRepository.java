package io.qdrant.esgateway.compat.spring;

import java.util.List;
import org.springframework.data.domain.Sort;
import org.springframework.data.elasticsearch.annotations.Query;
import org.springframework.data.elasticsearch.repository.ElasticsearchRepository;

/** Search-as-you-type through a repository: a string query on the autocomplete field. */
public interface SuggestionRepository extends ElasticsearchRepository<Suggestion, String> {
    @Query("{\"match\": {\"name\": {\"query\": \"?0\", \"operator\": \"and\"}}}")
    List<Suggestion> complete(String typed, Sort sort);
}
