package io.qdrant.esgateway.compat.spring;

import java.util.Collection;
import java.util.List;
import java.util.stream.Stream;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;
import org.springframework.data.elasticsearch.annotations.Highlight;
import org.springframework.data.elasticsearch.annotations.HighlightField;
import org.springframework.data.elasticsearch.annotations.Query;
import org.springframework.data.elasticsearch.core.SearchHits;
import org.springframework.data.elasticsearch.repository.ElasticsearchRepository;

/**
 * A repository as applications write them: derived queries, paging, sorting, a string query, highlighting, counts,
 * streams.
 */
public interface BookRepository extends ElasticsearchRepository<Book, String> {
    List<Book> findByAuthorOrderByPagesAsc(String author);

    List<Book> findByAuthorAndAvailable(String author, boolean available, Sort sort);

    List<Book> findByAuthorOrPagesGreaterThan(String author, int pages, Sort sort);

    List<Book> findByPriceBetweenOrderByPriceAsc(double from, double to);

    List<Book> findByTagsIn(Collection<String> tags, Sort sort);

    List<Book> findByAuthorLike(String fragment, Sort sort);

    List<Book> findByAuthorStartingWith(String prefix, Sort sort);

    List<Book> findByTitleContaining(String word, Sort sort);

    List<Book> findByPublishedAfterOrderByPublishedDesc(java.time.LocalDate date);

    Page<Book> findByAvailableTrue(Pageable pageable);

    SearchHits<Book> findByTitle(String words);

    @Highlight(fields = {@HighlightField(name = "title")})
    SearchHits<Book> findByTitleOrderByPublishedAsc(String word);

    @Query("{\"bool\": {\"must\": [{\"match\": {\"title\": \"?0\"}}], \"filter\": [{\"range\": {\"pages\": {\"gte\": ?1}}}]}}")
    Page<Book> titledWithAtLeast(String words, int pages, Pageable pageable);

    long countByAuthor(String author);

    boolean existsByAuthor(String author);

    Stream<Book> streamByAvailableFalse();

    long deleteByAuthor(String author);
}
