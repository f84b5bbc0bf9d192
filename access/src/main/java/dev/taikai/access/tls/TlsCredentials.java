package dev.taikai.access.tls;

import io.grpc.util.AdvancedTlsX509KeyManager;
import io.grpc.util.AdvancedTlsX509TrustManager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * A service's TLS identity and trust, read from {@link TlsFiles} and read again when a file changes
 * (checked every {@link #RELOAD_PERIOD}), so that a certificate replaced on disk is used for new
 * connections within seconds, without a restart. Open connections keep what they began with.
 *
 * <p>A new certificate is taken only together with the key that belongs to it: while one of the two has
 * been replaced and the other not yet, or when a file cannot be read, the pair read last stays in use and
 * the reason is logged once per change. The key managers and trust managers are grpc-java's ({@link
 * AdvancedTlsX509KeyManager}, {@link AdvancedTlsX509TrustManager}), which swap what they hold atomically.
 */
public final class TlsCredentials implements AutoCloseable {
    /** How often the files are checked for a change. */
    public static final Duration RELOAD_PERIOD = Duration.ofSeconds(1);

    private static final Logger LOG = Logger.getLogger(TlsCredentials.class.getName());

    private final TlsFiles files;
    private final ScheduledExecutorService watcher;
    private final AdvancedTlsX509KeyManager keyManager = new AdvancedTlsX509KeyManager();
    private final AdvancedTlsX509TrustManager serverTrust;
    private final AdvancedTlsX509TrustManager clientTrust;
    /** The files' modification times and sizes when they were last read (or found unusable). */
    private String seen;
    /** The last warning logged, so that a lasting problem is logged once. */
    private String lastWarning;
    /** How many times the files have been checked, for tests that wait for a check. */
    private final java.util.concurrent.atomic.AtomicLong checks = new java.util.concurrent.atomic.AtomicLong();
    /** Told after a changed certificate, key or CA has been taken into use. */
    private final List<Runnable> changeListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    private TlsCredentials(TlsFiles files) throws IOException, GeneralSecurityException {
        this.files = files;
        serverTrust = AdvancedTlsX509TrustManager.newBuilder()
                .setVerification(AdvancedTlsX509TrustManager.Verification.CERTIFICATE_AND_HOST_NAME_VERIFICATION)
                .build();
        clientTrust = AdvancedTlsX509TrustManager.newBuilder()
                .setVerification(AdvancedTlsX509TrustManager.Verification.CERTIFICATE_ONLY_VERIFICATION)
                .build();
        seen = stamp();
        load();
        watcher = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "taikai-tls-reload");
            thread.setDaemon(true);
            return thread;
        });
        long period = RELOAD_PERIOD.toMillis();
        watcher.scheduleWithFixedDelay(this::reloadIfChanged, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * Reads {@code files} and watches them. Fails at once, naming the file and what is wrong, when one is
     * missing or malformed or the key does not belong to the certificate.
     */
    public static TlsCredentials watch(TlsFiles files) throws IOException, GeneralSecurityException {
        return new TlsCredentials(files);
    }

    public TlsFiles files() {
        return files;
    }

    /** This service's certificate as it is in use now. */
    public X509Certificate certificate() {
        return keyManager.getCertificateChain("default")[0];
    }

    /** This service's certificate chain and key, as they are on disk now. */
    public X509ExtendedKeyManager keyManager() {
        return keyManager;
    }

    /** Trust for a client: the peer's chain must lead to the CA and name the host that was dialled. */
    public X509ExtendedTrustManager serverTrust() {
        return serverTrust;
    }

    /** Trust for a server checking its clients: the chain must lead to the CA (clients have no host name). */
    public X509ExtendedTrustManager clientTrust() {
        return clientTrust;
    }

    /** A JDK TLS context for clients (HTTP, Kafka): this identity, trusting servers of the CA. */
    public SSLContext clientContext() throws GeneralSecurityException {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(new KeyManager[] {keyManager}, new TrustManager[] {serverTrust}, null);
        return context;
    }

    /**
     * Runs {@code listener} on the watcher's thread each time changed files have been read and taken into
     * use (not when they were found unusable), so that a listener that keeps a copy of its own (an HTTP
     * server's) reads them only when they changed.
     */
    public void onChange(Runnable listener) {
        changeListeners.add(listener);
    }

    /** How many times the files have been checked for a change since they were first read. */
    long checks() {
        return checks.get();
    }

    private void reloadIfChanged() {
        try {
            String now = stamp();
            if (now.equals(seen)) {
                return;
            }
            seen = now;
            load();
            lastWarning = null;
            LOG.info("TLS: read " + files.certificate() + " again: now "
                    + certificate().getSubjectX500Principal() + ", serial "
                    + certificate().getSerialNumber().toString(16));
            changeListeners.forEach(Runnable::run);
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            String warning = "TLS: keeping the certificate in use: " + e.getMessage();
            if (!warning.equals(lastWarning)) { // once, not every second while the files stay so
                LOG.log(Level.WARNING, warning);
                lastWarning = warning;
            }
        } finally {
            checks.incrementAndGet();
        }
    }

    private void load() throws IOException, GeneralSecurityException {
        Read read = Read.of(files);
        keyManager.updateIdentityCredentials(read.chain(), read.key());
        serverTrust.updateTrustCredentials(read.authorities());
        clientTrust.updateTrustCredentials(read.authorities());
    }

    /**
     * Reads {@code files} once, as {@link #watch} does, without watching them: for a check before anything
     * else reads them (Quarkus's HTTPS settings), so that what is wrong is said in words.
     */
    public static void check(TlsFiles files) throws IOException, GeneralSecurityException {
        Read.of(files);
    }

    /** The files' contents, each checked, the key against the certificate. */
    private record Read(X509Certificate[] chain, PrivateKey key, X509Certificate[] authorities) {
        static Read of(TlsFiles files) throws IOException, GeneralSecurityException {
            for (Path file : List.of(files.certificate(), files.key(), files.ca())) {
                if (!Files.isReadable(file)) {
                    throw new IOException("cannot read " + file);
                }
            }
            Read read = new Read(
                    TlsCredentials.certificates(files.certificate()),
                    TlsCredentials.key(files.key()),
                    TlsCredentials.certificates(files.ca()));
            if (!belongTogether(read.key(), read.chain()[0])) {
                throw new GeneralSecurityException(
                        "the key in " + files.key() + " does not belong to the certificate in " + files.certificate());
            }
            return read;
        }
    }

    /** Every file's modification time and size: a change to any of them means reading them again. */
    private String stamp() throws IOException {
        StringBuilder stamp = new StringBuilder();
        for (Path file : List.of(files.certificate(), files.key(), files.ca())) {
            if (!Files.isReadable(file)) {
                throw new IOException("cannot read " + file);
            }
            stamp.append(Files.getLastModifiedTime(file).toMillis())
                    .append('/')
                    .append(Files.size(file))
                    .append(' ');
        }
        return stamp.toString();
    }

    private static X509Certificate[] certificates(Path file) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(file)) {
            X509Certificate[] chain = CertificateFactory.getInstance("X.509").generateCertificates(in).stream()
                    .map(X509Certificate.class::cast)
                    .toArray(X509Certificate[]::new);
            if (chain.length == 0) {
                throw new GeneralSecurityException(file + " holds no PEM certificate");
            }
            return chain;
        } catch (java.security.cert.CertificateException e) {
            throw new GeneralSecurityException(file + " does not hold PEM certificates: " + e.getMessage(), e);
        }
    }

    private static PrivateKey key(Path file) throws IOException, GeneralSecurityException {
        try {
            return LocalCa.readKey(file);
        } catch (IOException e) {
            throw new GeneralSecurityException(file + " does not hold an unencrypted PKCS#8 key: " + e.getMessage(), e);
        }
    }

    /** Whether {@code certificate} verifies what {@code key} signs. */
    private static boolean belongTogether(PrivateKey key, X509Certificate certificate) throws GeneralSecurityException {
        String algorithm = key.getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256with" + key.getAlgorithm();
        byte[] probe = "taikai".getBytes(StandardCharsets.US_ASCII);
        Signature signer = Signature.getInstance(algorithm);
        signer.initSign(key);
        signer.update(probe);
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance(algorithm);
        verifier.initVerify(certificate.getPublicKey());
        verifier.update(probe);
        return verifier.verify(signature);
    }

    @Override
    public void close() {
        watcher.shutdownNow();
    }
}
