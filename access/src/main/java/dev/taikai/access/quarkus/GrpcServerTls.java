package dev.taikai.access.quarkus;

import dev.taikai.access.grpc.GrpcTls;
import io.quarkus.grpc.api.ServerBuilderCustomizer;
import io.quarkus.grpc.runtime.config.GrpcServerConfiguration;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.vertx.grpc.VertxServerBuilder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import javax.net.ssl.SSLException;

/**
 * Puts the gRPC server (Quarkus's separate server, {@code quarkus.grpc.server.use-separate-server=true})
 * on TLS with {@link ServiceTls}'s credentials, whose certificate is read again when its file changes:
 * a plaintext client cannot connect.
 */
@ApplicationScoped
public class GrpcServerTls implements ServerBuilderCustomizer<VertxServerBuilder> {
    @Inject
    ServiceTls tls;

    @Override
    public void customize(GrpcServerConfiguration config, VertxServerBuilder builder) {
        tls.credentials().ifPresent(credentials -> {
            try {
                builder.nettyBuilder().sslContext(GrpcTls.server(credentials, tls.requireClientCertificates()));
            } catch (SSLException e) {
                throw new ConfigurationException("cannot set up TLS for gRPC: " + e.getMessage());
            }
        });
    }
}
