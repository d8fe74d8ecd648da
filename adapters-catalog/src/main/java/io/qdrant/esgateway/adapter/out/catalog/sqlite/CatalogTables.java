package io.qdrant.esgateway.adapter.out.catalog.sqlite;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.SQLDataType;

/**
 * Every table and column of the catalog database, named once (plain jOOQ DSL, no code generation). Columns are
 * unqualified: each statement reads or writes one table. The data types are the ones the migrations create.
 */
final class CatalogTables {

    /** One row per applied migration; the schema's version is the highest. */
    static final Table<Record> SCHEMA_VERSION = table(name("schema_version"));
    static final Field<Integer> SCHEMA_VERSION_VERSION = field(name("version"), SQLDataType.INTEGER.notNull());
    static final Field<String> SCHEMA_VERSION_DESCRIPTION = field(name("description"), SQLDataType.VARCHAR.notNull());
    static final Field<Long> SCHEMA_VERSION_APPLIED_AT = field(name("applied_at"), SQLDataType.BIGINT.notNull());

    /** One row per concrete index. */
    static final Table<Record> INDICES = table(name("indices"));
    static final Field<String> INDEX_NAME = field(name("name"), SQLDataType.VARCHAR.notNull());
    static final Field<String> INDEX_UUID = field(name("uuid"), SQLDataType.VARCHAR.notNull());
    /** Milliseconds since the epoch. */
    static final Field<Long> INDEX_CREATION_DATE = field(name("creation_date"), SQLDataType.BIGINT.notNull());
    /** JSON object of {@code IndexSettings.toFlatMap()}, every value a string. */
    static final Field<String> INDEX_SETTINGS = field(name("settings"), SQLDataType.CLOB.notNull());
    /** JSON of {@code Mappings.toJson()}. */
    static final Field<String> INDEX_MAPPINGS = field(name("mappings"), SQLDataType.CLOB.notNull());
    static final Field<Long> INDEX_GENERATION = field(name("generation"), SQLDataType.BIGINT.notNull());

    /** One row per alias on an index; removed with the index (foreign key, on delete cascade). */
    static final Table<Record> ALIASES = table(name("aliases"));
    static final Field<String> ALIAS_NAME = field(name("alias"), SQLDataType.VARCHAR.notNull());
    static final Field<String> ALIAS_INDEX = field(name("index_name"), SQLDataType.VARCHAR.notNull());
    static final Field<String> ALIAS_INDEX_ROUTING = field(name("index_routing"), SQLDataType.VARCHAR.nullable(true));
    static final Field<String> ALIAS_SEARCH_ROUTING = field(name("search_routing"), SQLDataType.VARCHAR.nullable(true));
    /** Null when the alias does not say (distinct from false). */
    static final Field<Boolean> ALIAS_IS_WRITE_INDEX = field(name("is_write_index"), SQLDataType.BOOLEAN.nullable(true));
    static final Field<Boolean> ALIAS_IS_HIDDEN = field(name("is_hidden"), SQLDataType.BOOLEAN.nullable(true));
    /** The alias's filter query as JSON text; null when the alias has none. */
    static final Field<String> ALIAS_FILTER = field(name("filter"), SQLDataType.CLOB.nullable(true));

    /** A single row ({@code id = 1}) with the catalog's version, moved on every change of indices or aliases. */
    static final Table<Record> CATALOG_STATE = table(name("catalog_state"));
    static final Field<Integer> STATE_ID = field(name("id"), SQLDataType.INTEGER.notNull());
    static final Field<Long> STATE_VERSION = field(name("version"), SQLDataType.BIGINT.notNull());
    static final int STATE_ROW = 1;

    /** One row per stored script ({@code PUT _scripts/{id}}); not part of the catalog view. */
    static final Table<Record> STORED_SCRIPTS = table(name("stored_scripts"));
    static final Field<String> SCRIPT_ID = field(name("id"), SQLDataType.VARCHAR.notNull());
    static final Field<String> SCRIPT_LANG = field(name("lang"), SQLDataType.VARCHAR.notNull());
    static final Field<String> SCRIPT_SOURCE = field(name("source"), SQLDataType.CLOB.notNull());

    /** One row per user, role or API key (JSON holding hashes only); not part of the catalog view. */
    static final Table<Record> SECURITY_RECORDS = table(name("security_records"));
    static final Field<String> SECURITY_KIND = field(name("kind"), SQLDataType.VARCHAR.notNull());
    static final Field<String> SECURITY_NAME = field(name("name"), SQLDataType.VARCHAR.notNull());
    static final Field<String> SECURITY_RECORD = field(name("record"), SQLDataType.CLOB.notNull());
    /** One row per index or component template ({@code kind} {@code index}|{@code component}); not in the view. */
    static final Table<Record> TEMPLATES = table(name("templates"));
    static final Field<String> TEMPLATE_KIND = field(name("kind"), SQLDataType.VARCHAR.notNull());
    static final Field<String> TEMPLATE_NAME = field(name("name"), SQLDataType.VARCHAR.notNull());
    static final Field<String> TEMPLATE_SOURCE = field(name("source"), SQLDataType.CLOB.notNull());

    private CatalogTables() {
    }
}
