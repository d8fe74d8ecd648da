package io.qdrant.esgateway.adapter.out.catalog.sqlite;

import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.ALIASES;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.ALIAS_INDEX;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.ALIAS_INDEX_ROUTING;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.ALIAS_IS_HIDDEN;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.ALIAS_IS_WRITE_INDEX;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.ALIAS_NAME;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.ALIAS_SEARCH_ROUTING;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.CATALOG_STATE;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.INDEX_CREATION_DATE;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.INDEX_GENERATION;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.INDEX_MAPPINGS;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.INDEX_NAME;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.INDEX_SETTINGS;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.INDEX_UUID;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.INDICES;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.SCHEMA_VERSION;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.SCHEMA_VERSION_APPLIED_AT;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.SCHEMA_VERSION_DESCRIPTION;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.SCHEMA_VERSION_VERSION;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.STATE_ID;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.STATE_ROW;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.STATE_VERSION;
import static org.jooq.impl.DSL.constraint;
import static org.jooq.impl.DSL.max;
import static org.jooq.impl.DSL.name;

import io.qdrant.esgateway.domain.error.GatewayException;
import java.time.InstantSource;
import java.util.List;
import java.util.function.Consumer;
import org.jooq.DSLContext;

/**
 * The catalog database's schema as an ordered list of migrations. A database records each migration it has had in
 * {@code schema_version}; opening it applies the missing ones, in order, in one transaction. Never edit a released
 * migration: append a new one.
 */
final class SchemaMigrations {

    /** One step of the schema; {@code version} numbers run 1, 2, 3, … without gaps. */
    record Migration(int version, String description, Consumer<DSLContext> apply) {
    }

    static final List<Migration> ALL = List.of(
            new Migration(1, "initial schema: indices, aliases, catalog_state", SchemaMigrations::initialSchema),
            new Migration(2, "stored scripts", SchemaMigrations::storedScripts),
            new Migration(3, "security records", SchemaMigrations::securityRecords),
            new Migration(4, "index and component templates", SchemaMigrations::templates),
            new Migration(5, "alias filters", SchemaMigrations::aliasFilters));

    private SchemaMigrations() {
    }

    /** The version the code knows: the last migration's. */
    static int latest(List<Migration> migrations) {
        return migrations.isEmpty() ? 0 : migrations.getLast().version();
    }

    /**
     * Brings the database (inside the caller's transaction) up to the last of {@code migrations}; returns the schema
     * version it had before. Refuses a database whose schema is newer than the code.
     */
    static int migrate(DSLContext dsl, List<Migration> migrations, String database, InstantSource clock) {
        requireConsecutive(migrations);
        dsl.createTableIfNotExists(SCHEMA_VERSION)
                .columns(SCHEMA_VERSION_VERSION, SCHEMA_VERSION_DESCRIPTION, SCHEMA_VERSION_APPLIED_AT)
                .constraints(constraint(name("pk_schema_version")).primaryKey(SCHEMA_VERSION_VERSION))
                .execute();
        Integer recorded = dsl.select(max(SCHEMA_VERSION_VERSION)).from(SCHEMA_VERSION).fetchOne().value1();
        int current = recorded == null ? 0 : recorded;
        int latest = latest(migrations);
        if (current > latest) {
            throw GatewayException.backendUnavailable("catalog database [" + database + "] has schema version "
                    + current + ", but this gateway knows schema versions up to " + latest
                    + "; it was written by a newer gateway: run that version, or point this one at another file", null);
        }
        for (Migration migration : migrations) {
            if (migration.version() > current) {
                migration.apply().accept(dsl);
                dsl.insertInto(SCHEMA_VERSION, SCHEMA_VERSION_VERSION, SCHEMA_VERSION_DESCRIPTION,
                                SCHEMA_VERSION_APPLIED_AT)
                        .values(migration.version(), migration.description(), clock.millis())
                        .execute();
            }
        }
        return current;
    }

    private static void requireConsecutive(List<Migration> migrations) {
        for (int i = 0; i < migrations.size(); i++) {
            if (migrations.get(i).version() != i + 1) {
                throw new IllegalStateException("catalog migrations must be numbered 1, 2, 3, …; found version "
                        + migrations.get(i).version() + " at position " + (i + 1));
            }
        }
    }

    private static void storedScripts(DSLContext dsl) {
        dsl.createTable(CatalogTables.STORED_SCRIPTS)
                .columns(CatalogTables.SCRIPT_ID, CatalogTables.SCRIPT_LANG, CatalogTables.SCRIPT_SOURCE)
                .constraints(constraint(name("pk_stored_scripts")).primaryKey(CatalogTables.SCRIPT_ID))
                .execute();
    }

    private static void securityRecords(DSLContext dsl) {
        dsl.createTable(CatalogTables.SECURITY_RECORDS)
                .columns(CatalogTables.SECURITY_KIND, CatalogTables.SECURITY_NAME, CatalogTables.SECURITY_RECORD)
                .constraints(constraint(name("pk_security_records")).primaryKey(CatalogTables.SECURITY_KIND,
                        CatalogTables.SECURITY_NAME))
                .execute();
    }

    private static void templates(DSLContext dsl) {
        dsl.createTable(CatalogTables.TEMPLATES)
                .columns(CatalogTables.TEMPLATE_KIND, CatalogTables.TEMPLATE_NAME, CatalogTables.TEMPLATE_SOURCE)
                .constraints(constraint(name("pk_templates")).primaryKey(CatalogTables.TEMPLATE_KIND,
                        CatalogTables.TEMPLATE_NAME))
                .execute();
    }

    private static void aliasFilters(DSLContext dsl) {
        dsl.alterTable(ALIASES).addColumn(CatalogTables.ALIAS_FILTER).execute();
    }

    private static void initialSchema(DSLContext dsl) {
        dsl.createTable(INDICES)
                .columns(INDEX_NAME, INDEX_UUID, INDEX_CREATION_DATE, INDEX_SETTINGS, INDEX_MAPPINGS, INDEX_GENERATION)
                .constraints(constraint(name("pk_indices")).primaryKey(INDEX_NAME))
                .execute();
        dsl.createTable(ALIASES)
                .columns(ALIAS_NAME, ALIAS_INDEX, ALIAS_INDEX_ROUTING, ALIAS_SEARCH_ROUTING, ALIAS_IS_WRITE_INDEX,
                        ALIAS_IS_HIDDEN)
                .constraints(
                        constraint(name("pk_aliases")).primaryKey(ALIAS_NAME, ALIAS_INDEX),
                        constraint(name("fk_aliases_index")).foreignKey(ALIAS_INDEX).references(INDICES, INDEX_NAME)
                                .onDeleteCascade())
                .execute();
        dsl.createIndex(name("ix_aliases_index_name")).on(ALIASES, ALIAS_INDEX).execute();
        dsl.createTable(CATALOG_STATE)
                .columns(STATE_ID, STATE_VERSION)
                .constraints(constraint(name("pk_catalog_state")).primaryKey(STATE_ID))
                .execute();
        dsl.insertInto(CATALOG_STATE, STATE_ID, STATE_VERSION).values(STATE_ROW, 0L).execute();
    }
}
