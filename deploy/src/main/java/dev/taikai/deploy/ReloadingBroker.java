package dev.taikai.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
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
    /** How long the broker has to serve a certificate it was asked to reload. */
    private static final long TAKE_WITHIN_MS = 15_000;

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
            PrivateKey privateKey = privateKey(key, publicKey.getAlgorithm());
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

    /** The PKCS#8 key in {@code key}, of {@code algorithm} (EC, RSA). */
    private static PrivateKey privateKey(Path key, String algorithm) throws IOException, GeneralSecurityException {
        String text = Files.readString(key, StandardCharsets.US_ASCII);
        int begin = text.indexOf(PKCS8_BEGIN);
        int end = text.indexOf(PKCS8_END);
        if (begin < 0 || end < begin) {
            throw new GeneralSecurityException(key + " holds no PKCS#8 key");
        }
        byte[] der = Base64.getMimeDecoder().decode(text.substring(begin + PKCS8_BEGIN.length(), end));
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
    }

    /**
     * Whether the broker's listener serves the folder's certificate within {@link #TAKE_WITHIN_MS}: Kafka
     * answers the request to reload before the broker has reloaded, and a store it then refuses (a subject
     * that changed, a certificate the old CA would not vouch for) is written only to its own log.
     */
    private boolean served() throws InterruptedException {
        X509Certificate wanted;
        SSLContext asTheBroker;
        try (InputStream in = Files.newInputStream(certificates.resolve("tls.crt"))) {
            wanted = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
            asTheBroker = clientContext(wanted);
        } catch (IOException | GeneralSecurityException e) {
            return false;
        }
        long deadline = System.nanoTime() + TAKE_WITHIN_MS * 1_000_000;
        while (!wanted.equals(servedNow(asTheBroker))) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(200);
        }
        return true;
    }

    /**
     * A TLS client as the broker: {@code certificate} with the folder's key. It trusts what it is shown, for
     * it only reads which certificate that is ({@link #servedNow}): the listener still proves it holds that
     * certificate's key, and nothing is sent over the connection.
     */
    private SSLContext clientContext(X509Certificate certificate) throws IOException, GeneralSecurityException {
        KeyStore identity = KeyStore.getInstance("PKCS12");
        identity.load(null, null);
        identity.setKeyEntry(
                "broker",
                privateKey(
                        certificates.resolve("tls.key"),
                        certificate.getPublicKey().getAlgorithm()),
                new char[0],
                new X509Certificate[] {certificate});
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(identity, new char[0]);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), new TrustManager[] {new ReadOnly()}, null);
        return context;
    }

    /**
     * The certificate the broker's listener serves, read in a TLS handshake with {@code context}; null when
     * none could be read.
     */
    private X509Certificate servedNow(SSLContext context) {
        try {
            int colon = bootstrapServer.lastIndexOf(':');
            String host = bootstrapServer.substring(0, colon);
            int port = Integer.parseInt(bootstrapServer.substring(colon + 1));
            try (Socket plain = new Socket()) {
                plain.connect(new InetSocketAddress(host, port), 5000);
                plain.setSoTimeout(5000);
                try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, false)) {
                    socket.startHandshake();
                    return (X509Certificate) socket.getSession().getPeerCertificates()[0];
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Takes any server certificate: for {@link #servedNow}, which only reads it. */
    private static final class ReadOnly implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
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
            if (!served()) {
                return changed + ", and Kafka did not take them (its log says why: a certificate whose subject"
                        + " changed, or one that clients trusting the CA in use would refuse); the broker keeps the"
                        + " ones in use (tried again when the files change)";
            }
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
