package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.application.port.out.Catalog;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.script.PainlessScript;
import io.qdrant.esgateway.domain.script.Script;
import io.qdrant.esgateway.domain.script.ScriptContext;
import io.qdrant.esgateway.domain.script.StoredScript;

/** Turns a request's {@code script} into a compiled one: inline, or stored in the catalog by id. */
final class Scripts {
    private final Catalog catalog;

    Scripts(Catalog catalog) {
        this.catalog = catalog;
    }

    PainlessScript compile(ScriptContext context, Script script) {
        String source = script.source().orElseGet(() -> {
            String id = script.id().orElseThrow();
            return catalog.storedScript(id).map(StoredScript::source).orElseThrow(() -> new GatewayException(
                    ErrorKind.RESOURCE_NOT_FOUND, "unable to find script [" + id + "] in cluster state"));
        });
        return PainlessScript.compile(context, source);
    }
}
