package dev.taikai.access.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.testkit.Await;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsCredentialsTest {
    private static final Duration VALID = Duration.ofDays(1);

    @TempDir
    Path dir;

    @Test
    void issuedCertificatesNameTheirHolderAndRole() throws Exception {
        LocalCa ca = LocalCa.create("test CA", VALID);
        TlsFiles files = ca.issue(new PeerIdentity("referee-2", ServiceRole.REFEREE), List.of("127.0.0.1"), VALID, dir);
        try (TlsCredentials credentials = TlsCredentials.watch(files)) {
            assertEquals(
                    Optional.of(new PeerIdentity("referee-2", ServiceRole.REFEREE)),
                    PeerIdentity.of(credentials.certificate()));
            // the form Kafka's principal rules (deploy's KafkaAcls) are written for
            assertEquals(
                    "CN=referee-2,OU=referee,O=Taikai",
                    credentials.certificate().getSubjectX500Principal().getName());
        }
        assertEquals(Optional.empty(), PeerIdentity.parse("CN=x,OU=referee,O=Other"));
        assertEquals(Optional.empty(), PeerIdentity.parse("CN=x,OU=janitor,O=Taikai"));
        assertEquals(Optional.empty(), PeerIdentity.parse("CN=x,OU=referee,OU=admin,O=Taikai,L=y"));
    }

    @Test
    void aKeyThatDoesNotBelongToTheCertificateIsRefusedAtStartAndKeptOutLater() throws Exception {
        LocalCa ca = LocalCa.create("test CA", VALID);
        TlsFiles files = ca.issue(new PeerIdentity("w", ServiceRole.WORKER), List.of(), VALID, dir.resolve("a"));
        TlsFiles other = ca.issue(new PeerIdentity("w", ServiceRole.WORKER), List.of(), VALID, dir.resolve("b"));
        try (TlsCredentials credentials = TlsCredentials.watch(files)) {
            BigInteger first = credentials.certificate().getSerialNumber();
            // only the key is replaced: the pair in use stays
            Files.copy(other.key(), files.key(), StandardCopyOption.REPLACE_EXISTING);
            long checked = credentials.checks();
            Await.until(Duration.ofSeconds(20), "two checks of the files", () -> credentials.checks() >= checked + 2);
            assertEquals(first, credentials.certificate().getSerialNumber());
            // then its certificate: the new pair is taken
            Files.copy(other.certificate(), files.certificate(), StandardCopyOption.REPLACE_EXISTING);
            BigInteger second = LocalCa.readCertificate(other.certificate()).getSerialNumber();
            Await.until(
                    Duration.ofSeconds(20),
                    "the new pair is in use",
                    () -> second.equals(credentials.certificate().getSerialNumber()));
        }
    }

    @Test
    void aMissingOrMalformedFileIsNamedAtStart() throws Exception {
        LocalCa ca = LocalCa.create("test CA", VALID);
        TlsFiles files = ca.issue(new PeerIdentity("w", ServiceRole.WORKER), List.of(), VALID, dir);
        Files.writeString(files.key(), "-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----\n");
        GeneralSecurityException malformed =
                assertThrows(GeneralSecurityException.class, () -> TlsCredentials.watch(files));
        assertTrue(malformed.getMessage().contains(files.key() + " is not well-formed PEM"), malformed.getMessage());
        Files.delete(files.ca());
        var missing = assertThrows(java.io.IOException.class, () -> TlsCredentials.watch(files));
        assertEquals("cannot read " + files.ca(), missing.getMessage());
    }
}
