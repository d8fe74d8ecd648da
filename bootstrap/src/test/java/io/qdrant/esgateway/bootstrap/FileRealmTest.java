package io.qdrant.esgateway.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.application.port.out.UserFiles.FileUser;
import io.qdrant.esgateway.domain.security.PasswordHashes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileRealmTest {
    private static final String HASH = PasswordHashes.bcrypt("pw-1234".toCharArray(), new byte[16]);
    private static final String PBKDF2 = PasswordHashes.pbkdf2("pw-5678".toCharArray(), new byte[32], 1000);

    @TempDir
    Path dir;

    @Test
    void readsElasticsearchsUsersAndUsersRolesFormats() throws Exception {
        Files.writeString(dir.resolve("users"), "# comment\n\nalice:" + HASH + "\nbob:" + PBKDF2 + "\n"
                + "no-colon\n:" + HASH + "\ncarol:plaintext\n bad :" + HASH + "\n");
        Files.writeString(dir.resolve("users_roles"), "# roles\nreader:alice,bob\nwriter: alice , nobody\n"
                + "broken\n");
        FileRealm realm = new FileRealm(dir, Duration.ofHours(1), System::nanoTime);
        assertThat(realm.size()).isEqualTo(2);
        FileUser alice = realm.user("alice").orElseThrow();
        assertThat(alice.roles()).containsExactly("reader", "writer");
        assertThat(PasswordHashes.verify("pw-1234".toCharArray(), alice.passwordHash())).isTrue();
        assertThat(realm.user("bob").orElseThrow().roles()).containsExactly("reader");
        assertThat(PasswordHashes.verify("pw-5678".toCharArray(), realm.user("bob").orElseThrow().passwordHash()))
                .isTrue();
        assertThat(realm.user("carol")).as("a hash of no known kind").isEmpty();
        assertThat(realm.user("nobody")).as("roles alone make no user").isEmpty();
        assertThat(alice.toString()).doesNotContain(HASH);
    }

    @Test
    void missingFilesAreEmptyAndChangesAreReadAtTheNextCheck() throws Exception {
        AtomicLong now = new AtomicLong();
        FileRealm realm = new FileRealm(dir, Duration.ofSeconds(1), now::get);
        assertThat(realm.user("alice")).isEmpty();
        long first = realm.generation();
        Files.writeString(dir.resolve("users"), "alice:" + HASH + "\n");
        assertThat(realm.user("alice")).as("not checked again yet").isEmpty();
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(realm.user("alice")).isPresent();
        assertThat(realm.user("alice").orElseThrow().roles()).isEmpty();
        assertThat(realm.generation()).isEqualTo(first + 1);
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(realm.generation()).as("unchanged files keep the generation").isEqualTo(first + 1);
        Files.writeString(dir.resolve("users_roles"), "admin:alice\n");
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(realm.user("alice").orElseThrow().roles()).isEqualTo(List.of("admin"));
        Files.delete(dir.resolve("users"));
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(realm.user("alice")).isEmpty();
        assertThat(realm.generation()).isEqualTo(first + 3);
    }
}
