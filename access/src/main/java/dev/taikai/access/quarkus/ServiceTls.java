package dev.taikai.access.quarkus;

import dev.taikai.access.grpc.GrpcTls;
import dev.taikai.access.tls.PeerIdentity;
import dev.taikai.access.tls.TlsCredentials;
import dev.taikai.access.tls.TlsFiles;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.quarkus.tls.CertificateUpdatedEvent;
import io.quarkus.tls.TlsConfiguration;
import io.quarkus.tls.TlsConfigurationRegistry;
import io.quarkus.tls.runtime.config.TlsConfig;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The service's TLS (docs/security.md): with {@code taikai.tls.dir} set, its gRPC and HTTP listeners
 * speak only TLS with the certificate in that folder ({@link TlsFiles#in}), read again when it changes,
 * and its clients (referee to worker, Kafka) present it. Without it the service runs in plaintext and
 * says so at start; with {@code taikai.tls.required=true} (the production overlay) it refuses to.
 */
@ApplicationScoped
public class ServiceTls {
    private static final Logger LOG = Logger.getLogger(ServiceTls.class);

    @ConfigProperty(name = "taikai.tls.dir")
    Optional<String> directory;

    @ConfigProperty(name = "taikai.tls.required", defaultValue = "false")
    boolean required;

    /** {@code required}: a gRPC client without a certificate of the CA cannot connect (the workers). */
    @ConfigProperty(name = "taikai.tls.client-certificates", defaultValue = "optional")
    String clientCertificates;

    @Inject
    TlsConfigurationRegistry tlsRegistry;

    @Inject
    Event<CertificateUpdatedEvent> certificateUpdated;

    private TlsCredentials credentials;

    void start(@Observes StartupEvent event) {
        credentials().ifPresent(c -> c.onChange(this::reloadHttps));
        credentials()
                .ifPresentOrElse(
                        c -> LOG.infof(
                                "TLS on every listener with the certificate in %s (%s); client certificates %s; files"
                                        + " read again when they change; TLS by %s",
                                c.files().certificate().getParent(),
                                identity(c),
                                requireClientCertificates() ? "required" : "optional",
                                GrpcTls.implementation()),
                        () -> LOG.warn(
                                "plaintext: no taikai.tls.dir, so tokens and records cross the network unencrypted"
                                        + " (docs/security.md)"));
    }

    /**
     * Has Quarkus read the HTTPS listener's certificate again ({@link HttpTlsConfig}) and tells the listener,
     * as Quarkus's own periodic reload does; here only when the files changed. Quarkus's reload builds a
     * PKCS#12 key store each time (PBKDF2 over the key): every 2 s, as it was, that took 13 to 29 % of
     * each service's CPU while it played games.
     */
    private void reloadHttps() {
        Optional<TlsConfiguration> https = tlsRegistry.getDefault();
        if (https.isEmpty()) {
            return;
        }
        try {
            if (https.get().reload()) {
                certificateUpdated.fire(new CertificateUpdatedEvent(TlsConfig.DEFAULT_NAME, https.get()));
            } else {
                LOG.warnf("TLS: the HTTPS listener keeps its certificate: Quarkus could not read the files again");
            }
        } catch (RuntimeException e) {
            LOG.warnf("TLS: the HTTPS listener keeps its certificate: %s", e.toString());
        }
    }

    /** The credentials, read on first use; empty in plaintext. */
    public synchronized Optional<TlsCredentials> credentials() {
        if (credentials == null && directory.isPresent() && !directory.get().isBlank()) {
            try {
                credentials = TlsCredentials.watch(TlsFiles.in(Path.of(directory.get())));
            } catch (IOException | GeneralSecurityException e) {
                throw new ConfigurationException("taikai.tls.dir=" + directory.get() + ": " + e.getMessage());
            }
        }
        if (credentials == null && required) {
            throw new ConfigurationException(
                    "taikai.tls.required is true and taikai.tls.dir is not set: this service does not run in"
                            + " plaintext");
        }
        return Optional.ofNullable(credentials);
    }

    /**
     * The Kafka client properties of this service's TLS ({@link dev.taikai.access.kafka.KafkaTls}): its
     * certificate, the broker's checked against the CA; empty in plaintext.
     */
    public java.util.Properties kafkaClient() {
        return credentials().isPresent()
                ? dev.taikai.access.kafka.KafkaTls.clientProperties(
                        credentials.files().certificate().getParent())
                : new java.util.Properties();
    }

    public boolean requireClientCertificates() {
        return switch (clientCertificates) {
            case "required" -> true;
            case "optional" -> false;
            default ->
                throw new ConfigurationException("taikai.tls.client-certificates must be required or optional, not '"
                        + clientCertificates + "'");
        };
    }

    private static String identity(TlsCredentials credentials) {
        return PeerIdentity.of(credentials.certificate())
                .map(PeerIdentity::toString)
                .orElse(credentials.certificate().getSubjectX500Principal().getName());
    }

    @PreDestroy
    synchronized void close() {
        if (credentials != null) {
            credentials.close();
        }
    }
}
