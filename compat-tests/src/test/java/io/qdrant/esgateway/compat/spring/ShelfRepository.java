package io.qdrant.esgateway.compat.spring;

import java.util.List;
import org.springframework.data.elasticsearch.repository.ElasticsearchRepository;

/** Shelves by room: a derived query whose hits carry their sequence numbers. */
public interface ShelfRepository extends ElasticsearchRepository<Shelf, String> {
    List<Shelf> findByRoom(String room);
}
