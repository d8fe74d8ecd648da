package io.qdrant.esgateway.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.Refresh;
import co.elastic.clients.elasticsearch.security.AuthenticateResponse;
import co.elastic.clients.elasticsearch.security.CreateApiKeyResponse;
import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;
import io.qdrant.esgateway.bootstrap.GatewayForCompat;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.http.Header;
import org.apache.http.HttpHost;
import org.apache.http.auth.AuthScope;
import org.apache.http.auth.UsernamePasswordCredentials;
import org.apache.http.impl.client.BasicCredentialsProvider;
import org.apache.http.message.BasicHeader;
import org.elasticsearch.client.RestClient;
import org.elasticsearch.client.RestClientBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official Elasticsearch Java client 8.15 against a gateway with security and TLS on, on both backends (the
 * embedded store, and Qdrant as served by {@link FakeQdrant}): HTTPS with the gateway's certificate trusted, basic
 * authentication as {@code elastic}, roles, users and API keys made through the client's typed security API, a
 * search with the API key, a 403 and a 401 as the client reports them. There is no security-enabled Elasticsearch
 * oracle here: the answers are checked against Elasticsearch's documented shapes, through the client's own parsing.
 */
class ClientSecurityFlowsTest {
    private static final String PASSWORD = "client-flows-pass";
    private static final char[] STORE_PASSWORD = "store-pass".toCharArray();

    @TempDir
    Path temp;

    @Test
    void basicAuthApiKeysAndTlsOnTheLuceneBackend() throws Exception {
        flow(Files.createDirectories(temp.resolve("lucene")), Map.of());
    }

    @Test
    void basicAuthApiKeysAndTlsOnTheQdrantBackend() throws Exception {
        FakeQdrant qdrant = new FakeQdrant();
        try {
            flow(Files.createDirectories(temp.resolve("qdrant")), Map.of("QEG_BACKEND", "qdrant", "QEG_QDRANT_URL",
                    qdrant.uri().toString()));
        } finally {
            qdrant.close();
        }
        assertThat(qdrant.violations).isEmpty();
    }

    private void flow(Path data, Map<String, String> backend) throws Exception {
        Path keystore = keystore(data);
        Map<String, String> env = new HashMap<>(backend);
        env.putAll(Map.of("QEG_SECURITY", "true", "QEG_ELASTIC_PASSWORD", PASSWORD,
                "QEG_TLS_KEYSTORE", keystore.toString(), "QEG_TLS_KEYSTORE_PASSWORD", new String(STORE_PASSWORD)));
        SSLContext tls = trusting(keystore);
        try (GatewayForCompat gateway = GatewayForCompat.start(data, env)) {
            String base = "https://127.0.0.1:" + gateway.port();
            try (Client admin = Client.basic(base, tls, "elastic", PASSWORD)) {
                ElasticsearchClient es = admin.client;
                AuthenticateResponse me = es.security().authenticate();
                assertThat(me.username()).isEqualTo("elastic");
                assertThat(me.roles()).containsExactly("superuser");
                assertThat(me.authenticationRealm().name()).isEqualTo("reserved");
                es.index(i -> i.index("books").id("1").document(Map.of("title", "Dune")).refresh(Refresh.True));
                es.index(i -> i.index("secrets").id("1").document(Map.of("title", "x")).refresh(Refresh.True));
                assertThat(es.security().putRole(r -> r.name("books_reader").cluster("monitor", "manage_own_api_key")
                        .indices(i -> i.names("books*").privileges("read"))).role().created()).isTrue();
                assertThat(es.security().getRole(r -> r.name("books_reader")).get("books_reader").indices().get(0)
                        .names()).containsExactly("books*");
                assertThat(es.security().putUser(u -> u.username("reader").password("reader-pass")
                        .roles("books_reader").fullName("A Reader")).created()).isTrue();
                assertThat(es.security().getUser(u -> u.username("reader")).get("reader").roles())
                        .containsExactly("books_reader");
            }
            try (Client reader = Client.basic(base, tls, "reader", "reader-pass")) {
                ElasticsearchClient es = reader.client;
                assertThat(es.get(g -> g.index("books").id("1"), Map.class).found()).isTrue();
                assertThatThrownBy(() -> es.get(g -> g.index("secrets").id("1"), Map.class))
                        .isInstanceOfSatisfying(ElasticsearchException.class, e -> {
                            assertThat(e.status()).isEqualTo(403);
                            assertThat(e.error().type()).isEqualTo("security_exception");
                            assertThat(e.error().reason()).contains("action [indices:data/read/get] is unauthorized"
                                    + " for user [reader]");
                        });
                CreateApiKeyResponse key = es.security().createApiKey(c -> c.name("search-key")
                        .expiration(t -> t.time("1d")));
                assertThat(key.encoded()).isNotBlank();
                assertThat(key.expiration()).isNotNull();
                assertThat(es.security().getApiKey(g -> g.name("search-key")).apiKeys()).singleElement()
                        .satisfies(k -> assertThat(k.username()).isEqualTo("reader"));

                try (Client withKey = Client.apiKey(base, tls, key.encoded())) {
                    var hits = withKey.client.search(s -> s.index("books*"), Map.class).hits().hits();
                    assertThat(hits).hasSize(1);
                    assertThat(withKey.client.security().authenticate().apiKey().name()).isEqualTo("search-key");
                    assertThat(withKey.client.search(s -> s.index("*"), Map.class).hits().hits())
                            .as("a wildcard reaches only what the key may read").hasSize(1);
                    assertThat(es.security().invalidateApiKey(i -> i.ids(key.id())).invalidatedApiKeys())
                            .containsExactly(key.id());
                    assertThatThrownBy(() -> withKey.client.search(s -> s.index("books"), Map.class))
                            .isInstanceOfSatisfying(ElasticsearchException.class,
                                    e -> assertThat(e.status()).isEqualTo(401));
                }
            }
            try (Client anonymous = Client.of(base, tls, null, null)) {
                assertThatThrownBy(() -> anonymous.client.info())
                        .isInstanceOfSatisfying(ElasticsearchException.class, e -> {
                            assertThat(e.status()).isEqualTo(401);
                            assertThat(e.error().reason()).isEqualTo("missing authentication credentials for REST"
                                    + " request [/]");
                        });
            }
        }
    }

    /** The official client over HTTPS trusting the gateway's certificate, with basic credentials or a header. */
    private record Client(RestClient rest, RestClientTransport transport, ElasticsearchClient client)
            implements AutoCloseable {
        static Client basic(String base, SSLContext tls, String user, String password) {
            BasicCredentialsProvider credentials = new BasicCredentialsProvider();
            credentials.setCredentials(AuthScope.ANY, new UsernamePasswordCredentials(user, password));
            return of(base, tls, credentials, null);
        }

        static Client apiKey(String base, SSLContext tls, String encoded) {
            return of(base, tls, null, new BasicHeader("Authorization", "ApiKey " + encoded));
        }

        static Client of(String base, SSLContext tls, BasicCredentialsProvider credentials, Header header) {
            RestClientBuilder builder = RestClient.builder(HttpHost.create(base))
                    .setHttpClientConfigCallback(b -> {
                        b.setSSLContext(tls);
                        if (credentials != null) {
                            b.setDefaultCredentialsProvider(credentials);
                        }
                        return b;
                    });
            if (header != null) {
                builder.setDefaultHeaders(new Header[] {header});
            }
            RestClient rest = builder.build();
            RestClientTransport transport = new RestClientTransport(rest, new JacksonJsonpMapper());
            return new Client(rest, transport, new ElasticsearchClient(transport));
        }

        @Override
        public void close() throws IOException {
            transport.close();
        }
    }

    /** A self-signed certificate for 127.0.0.1 in a new PKCS#12 keystore, made by the JDK's keytool. */
    private static Path keystore(Path dir) throws IOException, InterruptedException {
        Path file = dir.resolve("gateway.p12");
        Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "gateway", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=gateway",
                "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", file.toString(), "-storepass", new String(STORE_PASSWORD),
                "-keypass", new String(STORE_PASSWORD))).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        return file;
    }

    private static SSLContext trusting(Path keystore) throws Exception {
        KeyStore server = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            server.load(in, STORE_PASSWORD);
        }
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("gateway", server.getCertificate("gateway"));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        return context;
    }
}
