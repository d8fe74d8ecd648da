package io.qdrant.esgateway.application.port.out;

import java.util.List;
import java.util.Optional;

/**
 * Elasticsearch's file realm ({@code default_file}): users with their password hashes ({@code users}) and the roles
 * given to them ({@code users_roles}), kept in files beside the configuration rather than in the catalog, and read
 * again when they change.
 */
public interface UserFiles {
    /** No files: the realm knows nobody. */
    UserFiles NONE = new UserFiles() {
        @Override
        public Optional<FileUser> user(String username) {
            return Optional.empty();
        }

        @Override
        public long generation() {
            return 0;
        }
    };

    /** The user the files name, with its hash and roles (empty roles when {@code users_roles} names none). */
    Optional<FileUser> user(String username);

    /** A number that changes whenever the files were read again with a different content. */
    long generation();

    /** One user of the files. */
    record FileUser(String username, String passwordHash, List<String> roles) {
        public FileUser {
            roles = List.copyOf(roles);
        }

        @Override
        public String toString() {
            return "FileUser[" + username + ", roles=" + roles + "]"; // never the hash
        }
    }
}
