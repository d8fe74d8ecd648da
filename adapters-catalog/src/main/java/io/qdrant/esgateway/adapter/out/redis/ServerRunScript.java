package io.qdrant.esgateway.adapter.out.redis;

/**
 * The Lua that the catalog's and the response cache's scripts share to learn which run of the server they run in:
 * its run id ({@code run_id} of {@code INFO server}), which a restart changes.
 */
public final class ServerRunScript {
    /**
     * Lua statements that set the local {@code run} to the server's run id, or end the script with the error reply
     * {@code QEG_NO_RUN_ID} when the gateway's user may not call {@code INFO server}. The start of a script (or of a
     * block after its early replies); it declares the locals {@code ok}, {@code info} and {@code run}.
     */
    public static final String RUN_ID = """
            local ok, info = pcall(redis.call, 'INFO', 'server')
            local run = ok and string.match(info, 'run_id:(%x+)')
            if not run then
              return redis.error_reply('QEG_NO_RUN_ID the gateway needs INFO server (its run_id) allowed for its user')
            end
            """;

    private ServerRunScript() {
    }
}
