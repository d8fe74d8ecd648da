/**
 * The {@code DocumentStore} port on embedded Apache Lucene (the default backend): one Lucene index per concrete
 * index, in {@code <data directory>/indices/<index uuid>}, so a deleted and re-created index never sees the old
 * one's files. The only public entry is {@link io.qdrant.esgateway.adapter.out.lucene.LuceneStores#open(
 * java.nio.file.Path)}.
 *
 * <h2>Field layout</h2>
 *
 * <p>Every document is one Lucene document. Field names are the full dotted paths of the mapping
 * ({@code author.name}, {@code title.keyword} for a multi-field); the names starting with {@code _} below are
 * Elasticsearch metadata field names, which a mapping cannot use, so they never collide with a document's fields.
 * Search queries exactly this layout.
 *
 * <table>
 *   <caption>What is indexed for each value</caption>
 *   <tr><th>Value</th><th>Lucene fields (same name unless noted)</th><th>Query with</th></tr>
 *   <tr><td>{@code _id}</td><td>{@code StringField} (one exact term, stored)</td>
 *       <td>{@code TermQuery}, {@code TermInSetQuery}; updates and deletes go by this term</td></tr>
 *   <tr><td>{@code _source}</td><td>{@code StoredField}: the compact JSON ({@code Json.write}) as UTF-8 bytes</td>
 *       <td>stored only</td></tr>
 *   <tr><td>{@code _version}, {@code _primary_term}</td><td>{@code StoredField} (long)</td><td>stored only</td></tr>
 *   <tr><td>{@code _seq_no}</td><td>{@code StoredField} (long) + {@code NumericDocValuesField}</td>
 *       <td>sort, doc values</td></tr>
 *   <tr><td>keyword</td><td>{@code StringField} (not stored) + {@code SortedSetDocValuesField}</td>
 *       <td>{@code TermQuery}, prefix/wildcard/range on terms; terms aggregations and sort on the doc values</td></tr>
 *   <tr><td>text</td><td>{@code TextField} (not stored), analysed by the writer's {@code StandardAnalyzer},
 *       with positions and norms</td><td>{@code TermQuery}/{@code PhraseQuery} on the analysed tokens</td></tr>
 *   <tr><td>long, integer, short, byte; date (epoch milliseconds, UTC)</td>
 *       <td>{@code LongPoint} + {@code SortedNumericDocValuesField}</td>
 *       <td>{@code LongPoint.newExactQuery/newRangeQuery/newSetQuery}; sort and aggregations on the doc values</td></tr>
 *   <tr><td>double</td><td>{@code DoublePoint} + {@code SortedNumericDocValuesField} of
 *       {@code NumericUtils.doubleToSortableLong}</td><td>{@code DoublePoint.newRangeQuery}, ...</td></tr>
 *   <tr><td>float, half_float</td><td>{@code FloatPoint} + {@code SortedNumericDocValuesField} of
 *       {@code NumericUtils.floatToSortableInt}</td><td>{@code FloatPoint.newRangeQuery}, ...</td></tr>
 *   <tr><td>boolean</td><td>{@code StringField} {@code "T"} / {@code "F"} (as Elasticsearch) +
 *       {@code SortedNumericDocValuesField} 1 / 0</td><td>{@code TermQuery} on {@code T}/{@code F}</td></tr>
 *   <tr><td>dense_vector</td><td>{@code KnnFloatVectorField} with the similarity of the field's mapping:
 *       {@code cosine} → {@code COSINE}, {@code dot_product} → {@code DOT_PRODUCT}, {@code l2_norm} →
 *       {@code EUCLIDEAN}, {@code max_inner_product} → {@code MAXIMUM_INNER_PRODUCT}; HNSW with Lucene's (and
 *       Elasticsearch's) defaults m=16, ef_construction=100; up to 4096 dimensions</td>
 *       <td>{@code KnnFloatVectorQuery}; Lucene's score for the similarity</td></tr>
 * </table>
 *
 * <p>A field with several values (a JSON array) gets one point and one term per value, and its doc values hold all
 * of them (sorted, duplicates kept for numbers). A field that appears in {@code _source} without an indexed value
 * ({@code null}, {@code []}, a keyword past {@code ignore_above}, an unmapped field under {@code dynamic: false}) gets
 * no Lucene field. Every value above has doc values, norms (text) or a vector, so {@code exists} is Lucene's
 * {@code FieldExistsQuery} per leaf path (an object path: the disjunction over its leaf paths), as Elasticsearch
 * answers it for fields with doc values or norms; a text value without tokens ({@code ""}) gets a norm of 0 and
 * exists, as in Elasticsearch. No {@code _field_names} terms are indexed (Elasticsearch indexes them only for fields
 * with neither doc values nor norms, which the mappings here cannot declare); indexes written before hold one term
 * per path with a value, which nothing reads. A {@code dense_vector} mapped with {@code index: false} is
 * still indexed for kNN; search refuses kNN on it by the mapping.
 *
 * <h2>Search</h2>
 *
 * <p>{@code QueryTranslator} turns the query tree into Lucene queries over this layout, per field type as
 * Elasticsearch 8.15 does; {@code LuceneSearch} runs them with {@code EsBm25Similarity} (Lucene's BM25 × 2.2, the
 * scale of Elasticsearch's scores), sorts on the doc values and renders sort values as Elasticsearch does.
 * {@code LuceneHighlighter} highlights the hits of the returned page as Elasticsearch's unified highlighter: text is
 * not stored, so the values are read from {@code _source}, analysed again and matched against the query in memory
 * (Lucene's {@code UnifiedHighlighter} with offsets from analysis), in fragments cut by
 * {@code BoundedSentenceBreakIterator}.
 *
 * <h2>Commits</h2>
 *
 * <p>A {@code write} batch is durable once its record in the index's translog ({@code translog-<generation>.tlog} in
 * the index directory, see {@code Translog}) is fsync'd; Lucene commits happen when the translog generation passes
 * 64 MiB, every 60 s while it holds anything, when the index is opened (after replaying the translog) and when the
 * store closes. A commit's user data
 * holds {@code max_seq_no} (the highest sequence number written, absent while there is none),
 * {@code translog_generation} (where the writes after the commit are logged) and {@code qeg_encoding} (the version
 * of this layout, {@code 1}).
 */
package io.qdrant.esgateway.adapter.out.lucene;
