/**
 * The {@code Catalog} port in an embedded SQLite database (the default for a single gateway replica), written with
 * jOOQ's DSL without code generation. The only public entry is {@link
 * io.qdrant.esgateway.adapter.out.catalog.sqlite.SqliteCatalogs#open(java.nio.file.Path)}; tables and columns are
 * named in {@code CatalogTables}, the schema's history in {@code SchemaMigrations}.
 */
package io.qdrant.esgateway.adapter.out.catalog.sqlite;
