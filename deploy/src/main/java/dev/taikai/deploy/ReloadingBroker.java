package dev.taikai.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;

/**
 * The main of a broker that speaks TLS ({@link KafkaBroker} starts it on the broker's jars): Kafka's own
 * main, and a thread that hands a certificate or CA replaced on disk to the running broker, as the services
 * take theirs. Kafka reads its stores at start; this thread checks the certificate folder every second and,
 * when its key, certificate or CA ({@code ca.crt}, the trust store) changed, writes the key store anew and
 * sets the listener's store locations (the same paths) through the broker's own API, with the broker's own
 * certificate (a super user). Kafka then reloads the stores it finds modified, on both listeners (KIP-226),
 * for new connections;
 * a key that does not match its certificate (a key written before its certificate, say) is not handed over,
 * and Kafka refuses a store whose subject changed; either way the broker keeps the store in use. The
 * outcome is a line in the broker's log; a refused change is tried again when the files change again.
 *
 * <p>Usage: ReloadingBroker SERVER-PROPERTIES CERTIFICATES-FOLDER KEY-STORE BOOTSTRAP-SERVER NODE-ID
 */
public final class ReloadingBroker {
    /** The dynamic settings set to reload the stores: Kafka reloads a store whose file changed. */
    static final List<String> STORE_SETTINGS =
            List.of("listener.name.broker.ssl.keystore.location", "listener.name.broker.ssl.truststore.location");

    private static final long CHECK_EVERY_MS = 1000;
    private static final String PKCS8_BEGIN = "-----BEGIN PRIVATE KEY-----";
    private static final String PKCS8_END = "-----END PRIVATE KEY-----";

    private final Path certificates;
    private final Path keyStore;
    private final String bootstrapServer;
    private final String nodeId;
    /** The folder's files as last handed over (or as the broker started with them): key store, then CA. */
    private byte[] applied;

    private ReloadingBroker(Path certificates, Path keyStore, String bootstrapServer, String nodeId) {
        this.certificates = certificates;
        this.keyStore = keyStore;
        this.bootstrapServer = bootstrapServer;
        this.nodeId = nodeId;
    }

    public static void main(String[] args) throws Exception {
        ReloadingBroker reload = new ReloadingBroker(Path.of(args[1]), Path.of(args[2]), args[3], args[4]);
        reload.applied = concat(Files.readAllBytes(reload.keyStore), Files.readAllBytes(reload.trustStore()));
        Thread thread = new Thread(reload::watch, "taikai-certificate-reload");
        thread.setDaemon(true);
        thread.start();
        Class.forName("kafka.Kafka").getMethod("main", String[].class).invoke(null, (Object) new String[] {args[0]});
    }

    /** The key store's text for the folder's files: Kafka's PEM store is the key, then the certificate. */
    static byte[] keyStoreOf(Path certificates) throws IOException {
        return concat(
                Files.readAllBytes(certificates.resolve("tls.key")),
                Files.readAllBytes(certificates.resolve("tls.crt")));
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    /** The broker's trust store: the folder's CA file, which Kafka reads as it is. */
    private Path trustStore() {
        return certificates.resolve("ca.crt");
    }

    /** Writes {@code text} to {@code keyStore} whole (readable by its owner only), never a half. */
    static void writeKeyStore(Path keyStore, byte[] text) throws IOException {
        Path next = keyStore.resolveSibling(keyStore.getFileName() + ".next");
        Files.deleteIfExists(next);
        Files.createFile(next, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.write(next, text);
        Files.move(next, keyStore, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private void watch() {
        while (true) {
            try {
                Thread.sleep(CHECK_EVERY_MS);
                byte[] store;
                byte[] now;
                try {
                    store = keyStoreOf(certificates);
                    now = concat(store, Files.readAllBytes(trustStore()));
                } catch (IOException e) {
                    continue; // a file being replaced, or gone: the next check sees what is there then
                }
                if (!Arrays.equals(now, applied)) {
                    applied = now;
                    say(take(store));
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                say("the certificate files in " + certificates + " could not be checked: " + e);
            }
        }
    }

    /** Hands the changed files' key store to the broker; what happened, in words. */
    private String take(byte[] text) throws InterruptedException {
        String changed = "the certificate files in " + certificates + " changed";
        try {
            if (!matches(certificates.resolve("tls.key"), certificates.resolve("tls.crt"))) {
                return changed + ", and the key in tls.key does not match the certificate in tls.crt; the broker"
                        + " keeps the ones in use (tried again when the files change)";
            }
            writeKeyStore(keyStore, text);
        } catch (IOException e) {
            return changed + ", and the key store could not be written (" + e + "); the broker keeps the ones in"
                    + " use (tried again when the files change)";
        }
        return reload(changed);
    }

    /**
     * Whether the PKCS#8 key in {@code key} belongs to the certificate in {@code certificate}: a signature
     * made with the one checks with the other. False for a file that is not such a key or certificate, or
     * that cannot be read. The services' TlsCredentials checks the same; this JVM has only the broker's
     * jars and this module's classes, not the access module and its gRPC.
     */
    static boolean matches(Path key, Path certificate) {
        try (InputStream in = Files.newInputStream(certificate)) {
            PublicKey publicKey = CertificateFactory.getInstance("X.509")
                    .generateCertificate(in)
                    .getPublicKey();
            String text = Files.readString(key, StandardCharsets.US_ASCII);
            int begin = text.indexOf(PKCS8_BEGIN);
            int end = text.indexOf(PKCS8_END);
            if (begin < 0 || end < begin) {
                return false;
            }
            byte[] der = Base64.getMimeDecoder().decode(text.substring(begin + PKCS8_BEGIN.length(), end));
            PrivateKey privateKey =
                    KeyFactory.getInstance(publicKey.getAlgorithm()).generatePrivate(new PKCS8EncodedKeySpec(der));
            Signature signature =
                    Signature.getInstance(publicKey.getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256withRSA");
            byte[] probe = "taikai".getBytes(StandardCharsets.US_ASCII);
            signature.initSign(privateKey);
            signature.update(probe);
            byte[] signed = signature.sign();
            signature.initVerify(publicKey);
            signature.update(probe);
            return signature.verify(signed);
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }

    /** Asks the broker to reload its stores; what happened, in words after {@code changed}. */
    private String reload(String changed) throws InterruptedException {
        Properties client = KafkaBroker.tlsClientOf(keyStore, trustStore());
        client.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServer);
        client.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        client.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "20000");
        List<AlterConfigOp> settings = List.of(
                set(STORE_SETTINGS.get(0), keyStore.toString()),
                set(STORE_SETTINGS.get(1), trustStore().toString()));
        try (Admin admin = Admin.create(client)) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.BROKER, nodeId), settings))
                    .all()
                    .get(30, TimeUnit.SECONDS);
            return changed + "; the listeners use them for new connections";
        } catch (ExecutionException e) {
            return changed + ", and the broker kept the ones in use: "
                    + e.getCause().getMessage() + " (tried again when the files change)";
        } catch (TimeoutException | RuntimeException e) {
            return changed + ", and the broker could not be asked to use them: " + e
                    + " (tried again when the files change)";
        }
    }

    private static AlterConfigOp set(String name, String value) {
        return new AlterConfigOp(new ConfigEntry(name, value), AlterConfigOp.OpType.SET);
    }

    private static void say(String line) {
        System.out.println("taikai: " + line);
    }
}
