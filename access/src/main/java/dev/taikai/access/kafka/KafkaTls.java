package dev.taikai.access.kafka;

import dev.taikai.access.tls.TlsCredentials;
import dev.taikai.access.tls.TlsFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.security.auth.SslEngineFactory;

/**
 * Kafka clients over mutual TLS with a service's {@link TlsCredentials}: the broker sees the client's
 * certificate (and with it the {@link dev.taikai.access.tls.ServiceRole} its ACLs are written for), and
 * the client checks the broker's against the CA and the broker's host name. The certificate is read again
 * when its files change, as the service's listeners read theirs: a Kafka client does not do that on its
 * own, so this is its {@code ssl.engine.factory.class}.
 */
public final class KafkaTls implements SslEngineFactory {
    /** The client property naming the folder of {@link TlsFiles#in}. */
    public static final String DIRECTORY = "taikai.tls.dir";

    private TlsCredentials credentials;
    private SSLContext context;

    /** The client properties for TLS with the certificate in {@code directory}. */
    public static Properties clientProperties(Path directory) {
        Properties properties = new Properties();
        properties.put("security.protocol", "SSL");
        properties.put(SslConfigs.SSL_ENGINE_FACTORY_CLASS_CONFIG, KafkaTls.class.getName());
        properties.put(DIRECTORY, directory.toString());
        return properties;
    }

    @Override
    public void configure(Map<String, ?> configs) {
        Object directory = configs.get(DIRECTORY);
        if (directory == null) {
            throw new IllegalArgumentException(KafkaTls.class.getName() + " needs the client property " + DIRECTORY);
        }
        try {
            credentials = TlsCredentials.watch(TlsFiles.in(Path.of(directory.toString())));
            context = credentials.clientContext();
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("Kafka TLS with " + directory + ": " + e.getMessage(), e);
        }
    }

    @Override
    public SSLEngine createClientSslEngine(String peerHost, int peerPort, String endpointIdentification) {
        SSLEngine engine = context.createSSLEngine(peerHost, peerPort);
        engine.setUseClientMode(true);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS"); // always: the broker's name is checked
        engine.setSSLParameters(parameters);
        return engine;
    }

    @Override
    public SSLEngine createServerSslEngine(String peerHost, int peerPort) {
        throw new UnsupportedOperationException("Taikai's Kafka TLS is for clients; a broker uses Kafka's own");
    }

    @Override
    public boolean shouldBeRebuilt(Map<String, Object> nextConfigs) {
        return false;
    }

    @Override
    public Set<String> reconfigurableConfigs() {
        return Set.of();
    }

    @Override
    public KeyStore keystore() {
        return null;
    }

    @Override
    public KeyStore truststore() {
        return null;
    }

    @Override
    public void close() {
        if (credentials != null) {
            credentials.close();
        }
    }
}
