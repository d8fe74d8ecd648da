/**
 * The {@code DocumentStore} port on embedded Apache Lucene (the default backend): one Lucene index per concrete
 * index, in {@code <data directory>/indices/<index uuid>}, so a deleted and re-created index never sees the old
 * one's files. The only public entry is {@link io.qdrant.esgateway.adapter.out.lucene.LuceneStores#open(
 * java.nio.file.Path)}.
 */
package io.qdrant.esgateway.adapter.out.lucene;
