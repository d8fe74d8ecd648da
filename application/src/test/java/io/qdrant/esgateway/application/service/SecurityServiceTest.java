package io.qdrant.esgateway.application.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.application.port.out.InMemoryCatalog;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.AliasMetadata;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.security.Authentication;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SecurityServiceTest {
    private final AtomicInteger userReads = new AtomicInteger();
    private final InMemoryCatalog catalog = new InMemoryCatalog() {
        @Override
        public synchronized Optional<String> securityRecord(String kind, String name) {
            if (kind.equals("user")) {
                userReads.incrementAndGet();
            }
            return super.securityRecord(kind, name);
        }
    };
    private final AtomicLong nanos = new AtomicLong();
    private final AtomicLong millis = new AtomicLong(1_700_000_000_000L);
    private SecurityService security;

    @BeforeEach
    void setUp() {
        security = new SecurityService(catalog, () -> Instant.ofEpochMilli(millis.get()), new SecureRandom(), Duration.ofSeconds(60), 100,
                nanos::get);
        for (String name : List.of("logs-a", "logs-b", "secret")) {
            catalog.createIndex(new IndexMetadata(name, "u-" + name, Instant.EPOCH, IndexSettings.DEFAULTS,
                    Mappings.EMPTY), name.equals("secret") ? List.of(AliasMetadata.plain("sec-alias", "secret"))
                    : List.of());
        }
        assertThat(security.bootstrapElastic(Optional.of("elastic-pass"))).isEmpty();
        security.putRole("reader", Json.parse("{\"indices\":[{\"names\":[\"logs-*\"],\"privileges\":[\"read\"]}]}"));
        security.putUser(null, "lena", Json.parse("{\"password\":\"lena-pass\",\"roles\":[\"reader\"]}"));
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theElasticPasswordIsGeneratedOnceAndOnlyItsHashIsKept() {
        InMemoryCatalog fresh = new InMemoryCatalog();
        SecurityService s = new SecurityService(fresh, () -> Instant.ofEpochMilli(millis.get()), new SecureRandom(), Duration.ofSeconds(1), 10,
                nanos::get);
        String generated = s.bootstrapElastic(Optional.empty()).orElseThrow();
        assertThat(generated).hasSize(20);
        assertThat(s.bootstrapElastic(Optional.empty())).as("once").isEmpty();
        assertThat(fresh.securityRecord("user", "elastic").orElseThrow()).doesNotContain(generated).contains("$2a$10$");
        assertThat(s.authenticate(basic("elastic", generated), "/").username()).isEqualTo("elastic");
    }

    @Test
    void aVerifiedCredentialIsRememberedUntilItsTimeIsUpOrSecurityChanges() {
        security.authenticate(basic("lena", "lena-pass"), "/");
        int reads = userReads.get();
        security.authenticate(basic("lena", "lena-pass"), "/");
        assertThat(userReads.get()).as("answered from the cache").isEqualTo(reads);
        nanos.addAndGet(Duration.ofSeconds(61).toNanos());
        security.authenticate(basic("lena", "lena-pass"), "/");
        assertThat(userReads.get()).as("aged out").isGreaterThan(reads);
        security.changePassword(security.authenticate(basic("elastic", "elastic-pass"), "/"), Optional.of("lena"),
                Json.parse("{\"password\":\"new-pass\"}"));
        assertThatThrownBy(() -> security.authenticate(basic("lena", "lena-pass"), "/x"))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.kind())
                        .isEqualTo(ErrorKind.UNAUTHENTICATED))
                .hasMessage("unable to authenticate user [lena] for REST request [/x]");
    }

    @Test
    void wildcardsNarrowToAllowedNamesAndExplicitNamesMustBeAllowed() {
        Authentication lena = security.authenticate(basic("lena", "lena-pass"), "/");
        assertThat(security.authorizeIndices(lena, "indices:data/read/search", "*")).isEqualTo("logs-a,logs-b");
        assertThat(security.authorizeIndices(lena, "indices:data/read/search", "_all,-logs-b"))
                .isEqualTo("logs-a,logs-b,-logs-b");
        assertThat(security.authorizeIndices(lena, "indices:data/read/search", "sec*")).isEqualTo("*,-*");
        assertThat(security.authorizeIndices(lena, "indices:data/read/search", "logs-a")).isEqualTo("logs-a");
        assertThatThrownBy(() -> security.authorizeIndices(lena, "indices:data/read/search", "sec-alias"))
                .as("an alias is checked by its own name").hasMessageContaining("on indices [sec-alias]");
        assertThatThrownBy(() -> security.authorizeIndices(lena, "indices:data/read/search", "logs-a,secret"))
                .hasMessage("action [indices:data/read/search] is unauthorized for user [lena] with effective roles"
                        + " [reader] on indices [secret], this action is granted by the index privileges [read,all]");
        assertThatThrownBy(() -> security.authorizeAll(lena, Map.of("indices:data/read/search", List.of("*"))))
                .as("a body's wildcard must be allowed on every match").hasMessageContaining("on indices [secret,sec-alias]");
        security.authorizeAll(lena, Map.of("indices:data/read/search", List.of("logs-*")));
    }

    @Test
    void anApiKeyIsLimitedByItsOwnerAndStoredAsAHash() {
        Authentication lena = security.authenticate(basic("lena", "lena-pass"), "/");
        var created = (io.qdrant.esgateway.domain.json.JsonValue.JsonObject) security.createApiKey(lena, Json.parse(
                "{\"name\":\"k\",\"expiration\":\"1h\",\"role_descriptors\":{\"r\":{\"indices\":[{\"names\":[\"*\"],"
                        + "\"privileges\":[\"read\"]}]}}}"));
        String secret = Json.write(created.get("api_key")).replace("\"", "");
        String encoded = Json.write(created.get("encoded")).replace("\"", "");
        assertThat(catalog.securityRecords("api_key").values()).noneMatch(r -> r.contains(secret));
        Authentication key = security.authenticate("ApiKey " + encoded, "/");
        assertThat(security.authorizeIndices(key, "indices:data/read/search", "*")).isEqualTo("logs-a,logs-b");
        millis.addAndGet(Duration.ofHours(2).toMillis());
        assertThatThrownBy(() -> security.authenticate("ApiKey " + encoded, "/"))
                .hasMessageContaining("unable to authenticate with provided credentials");
    }
}
