package io.qdrant.esgateway.domain.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PasswordHashesTest {

    /** Published bcrypt test vectors (OpenBSD's and OpenWall's crypt_blowfish), in the three prefixes. */
    @Test
    void bcryptVerifiesKnownVectors() {
        assertThat(PasswordHashes.verify("".toCharArray(),
                "$2a$06$DCq7YPn5Rq63x1Lad4cll.TV4S6ytwfsfvkgY8jIucDrjc8deX1s.")).isTrue();
        assertThat(PasswordHashes.verify("abc".toCharArray(),
                "$2a$06$If6bvum7DFjUnE9p2uDeDu0YHzrHM6tf.iqN8.yx.jNN1ILEf7h0i")).isTrue();
        assertThat(PasswordHashes.verify("U*U".toCharArray(),
                "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW")).isTrue();
        assertThat(PasswordHashes.verify("U*U".toCharArray(),
                "$2b$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW")).isTrue();
        assertThat(PasswordHashes.verify("U*U".toCharArray(),
                "$2y$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW")).isTrue();
        assertThat(PasswordHashes.verify("U*V".toCharArray(),
                "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW")).isFalse();
        assertThat(PasswordHashes.verify("abd".toCharArray(),
                "$2a$06$If6bvum7DFjUnE9p2uDeDu0YHzrHM6tf.iqN8.yx.jNN1ILEf7h0i")).isFalse();
    }

    @Test
    void bcryptRoundTripsAndReadsOnlyTheFirst72Bytes() {
        byte[] salt = new byte[16];
        new java.util.Random(7).nextBytes(salt);
        String hash = PasswordHashes.bcrypt("s3cret-päss".toCharArray(), salt);
        assertThat(hash).startsWith("$2a$10$").hasSize(60);
        assertThat(PasswordHashes.verify("s3cret-päss".toCharArray(), hash)).isTrue();
        assertThat(PasswordHashes.verify("s3cret-pass".toCharArray(), hash)).isFalse();
        String long72 = "x".repeat(72);
        String h = Bcrypt.hash(long72.toCharArray(), 4, salt);
        assertThat(Bcrypt.verify((long72 + "tail").toCharArray(), h)).isTrue();
        assertThat(Bcrypt.verify("x".repeat(71).toCharArray(), h)).isFalse();
    }

    /** Vectors made with Python's hashlib.pbkdf2_hmac('sha512', …, 1000, 32), in Elasticsearch's two PBKDF2 forms. */
    @Test
    void pbkdf2AndItsStretchFormVerifyIndependentVectors() {
        assertThat(PasswordHashes.verify("changeme".toCharArray(),
                "{PBKDF2}1000$c2FsdHNhbHRzYWx0c2FsdA==$mPSOESwXphyVCUORwuQOaQYNtXUuhfoAT6eWSnZwIPI=")).isTrue();
        assertThat(PasswordHashes.verify("changeme".toCharArray(),
                "{PBKDF2_STRETCH}1000$c2FsdHNhbHRzYWx0c2FsdA==$ISDZAnKlkHb1v0kQ+yeD0c+FBBFDAxxeKsEfxCnH9CE="))
                .isTrue();
        assertThat(PasswordHashes.verify("changemf".toCharArray(),
                "{PBKDF2}1000$c2FsdHNhbHRzYWx0c2FsdA==$mPSOESwXphyVCUORwuQOaQYNtXUuhfoAT6eWSnZwIPI=")).isFalse();
        String made = PasswordHashes.pbkdf2("another one".toCharArray(), new byte[32], 10000);
        assertThat(made).startsWith("{PBKDF2}10000$");
        assertThat(PasswordHashes.verify("another one".toCharArray(), made)).isTrue();
    }

    @Test
    void malformedAndUnknownHashesNeverVerify() {
        assertThat(PasswordHashes.verify("x".toCharArray(), null)).isFalse();
        assertThat(PasswordHashes.verify("x".toCharArray(), "x")).isFalse();
        assertThat(PasswordHashes.verify("x".toCharArray(), "{PBKDF2}abc$$")).isFalse();
        assertThat(PasswordHashes.verify("x".toCharArray(), "{PBKDF2}1000$c2FsdA==$AAAA")).isFalse();
        assertThat(PasswordHashes.verify("x".toCharArray(), "$2a$99$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"))
                .isFalse();
        assertThat(PasswordHashes.isSupported("{SHA}abc")).isFalse();
        assertThat(PasswordHashes.verifyNothing("x".toCharArray())).isFalse();
    }

    @Test
    void apiKeySecretsAreKeptAsSaltedSha256() {
        String hash = PasswordHashes.ssha256("ui2lp2axTNmsyakw9tvNnw".toCharArray(), new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        assertThat(hash).startsWith("{SSHA256}").doesNotContain("ui2lp2axTNmsyakw9tvNnw");
        assertThat(PasswordHashes.verify("ui2lp2axTNmsyakw9tvNnw".toCharArray(), hash)).isTrue();
        assertThat(PasswordHashes.verify("ui2lp2axTNmsyakw9tvNnx".toCharArray(), hash)).isFalse();
    }
}
