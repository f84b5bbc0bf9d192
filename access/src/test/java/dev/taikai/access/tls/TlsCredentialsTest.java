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
import java.util.concurrent.atomic.AtomicInteger;
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
        AtomicInteger changes = new AtomicInteger();
        LocalCa ca = LocalCa.create("test CA", VALID);
        TlsFiles files = ca.issue(new PeerIdentity("w", ServiceRole.WORKER), List.of(), VALID, dir.resolve("a"));
        TlsFiles other = ca.issue(new PeerIdentity("w", ServiceRole.WORKER), List.of(), VALID, dir.resolve("b"));
        try (TlsCredentials credentials = TlsCredentials.watch(files)) {
            BigInteger first = credentials.certificate().getSerialNumber();
            credentials.onChange(changes::incrementAndGet);
            long unchanged = credentials.checks();
            Await.until(Duration.ofSeconds(20), "two checks of the files", () -> credentials.checks() >= unchanged + 2);
            assertEquals(0, changes.get(), "files that did not change are not a change");
            // only the key is replaced: the pair in use stays
            Files.copy(other.key(), files.key(), StandardCopyOption.REPLACE_EXISTING);
            long checked = credentials.checks();
            Await.until(Duration.ofSeconds(20), "two checks of the files", () -> credentials.checks() >= checked + 2);
            assertEquals(first, credentials.certificate().getSerialNumber());
            assertEquals(0, changes.get(), "a pair that was not taken is not a change");
            // then its certificate: the new pair is taken
            Files.copy(other.certificate(), files.certificate(), StandardCopyOption.REPLACE_EXISTING);
            BigInteger second = LocalCa.readCertificate(other.certificate()).getSerialNumber();
            Await.until(
                    Duration.ofSeconds(20),
                    "the new pair is in use",
                    () -> second.equals(credentials.certificate().getSerialNumber()));
            Await.until(Duration.ofSeconds(20), "the listener is told", () -> changes.get() == 1);
            long after = credentials.checks();
            Await.until(Duration.ofSeconds(20), "two more checks", () -> credentials.checks() >= after + 2);
            assertEquals(1, changes.get(), "told once per change");
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
