package io.qdrant.esgateway.adapter.out.redis;

import java.util.function.Consumer;
import org.apache.commons.pool2.PooledObject;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisFactory;

/**
 * The connections of a pool, each checked against the server's current run before it is handed out: {@code onConnect}
 * runs first on every new connection, and a connection it fails on is closed and never used. A server restart breaks
 * every connection made before it, so every command a pool sends to a server run follows a check made in that run.
 */
public final class ServerRunCheck extends JedisFactory {
    private final Consumer<Jedis> onConnect;

    public ServerRunCheck(HostAndPort server, JedisClientConfig config, Consumer<Jedis> onConnect) {
        super(server, config);
        this.onConnect = onConnect;
    }

    @Override
    public PooledObject<Jedis> makeObject() throws Exception {
        PooledObject<Jedis> made = super.makeObject();
        try {
            onConnect.accept(made.getObject());
        } catch (RuntimeException e) {
            try {
                made.getObject().close();
            } catch (RuntimeException ignored) {
                // it failed already
            }
            throw e;
        }
        return made;
    }
}
