package dev.taikai.access.quarkus;

import dev.taikai.access.tls.TlsCredentials;
import dev.taikai.access.tls.TlsFiles;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Turns {@code taikai.tls.dir} into Quarkus's HTTP settings: the HTTP port serves TLS only (no plaintext
 * port is opened) with the folder's {@code tls.crt} and {@code tls.key}, which Quarkus's TLS registry
 * reads again when they change (ServiceTls). A client may present a certificate (client-auth=request, which Quarkus fixes at
 * build time: each service's application.properties sets it) (people and tools need none: their tokens
 * say who they are); one that the folder's {@code ca.crt} did not sign ends the handshake. Set above {@code application.properties} and below system properties and
 * the environment, so that any of these keys can still be given directly.
 */
public class HttpTlsConfig implements ConfigSourceFactory {
    /** Between application.properties (250) and the environment (300). */
    private static final int ORDINAL = 275;

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        ConfigValue directory = context.getValue("taikai.tls.dir");
        if (directory == null
                || directory.getValue() == null
                || directory.getValue().isBlank()) {
            return List.of();
        }
        Path folder = Path.of(directory.getValue());
        try {
            // before Quarkus's TLS registry reads them, which would fail with a stack trace
            TlsCredentials.check(TlsFiles.in(folder));
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigurationException("taikai.tls.dir=" + folder + ": " + e.getMessage());
        }
        ConfigValue port = context.getValue("quarkus.http.port");
        String httpPort = port == null || port.getValue() == null ? "8080" : port.getValue();
        return List.of(new PropertiesConfigSource(
                Map.of(
                        "quarkus.tls.key-store.pem.service.cert",
                        folder.resolve("tls.crt").toString(),
                        "quarkus.tls.key-store.pem.service.key",
                        folder.resolve("tls.key").toString(),
                        "quarkus.tls.trust-store.pem.certs",
                        folder.resolve("ca.crt").toString(),
                        // no quarkus.tls.reload-period: ServiceTls has these files read again when they
                        // change; TlsCredentials logs the change, so Quarkus's own line on it is not needed
                        "quarkus.log.category.\"io.quarkus.vertx.http.runtime.HttpCertificateUpdateEventListener\".level",
                        "WARN",
                        "quarkus.http.ssl-port",
                        httpPort,
                        "quarkus.http.insecure-requests",
                        "disabled"),
                "taikai.tls.dir",
                ORDINAL));
    }
}
