package dev.taikai.access.quarkus;

import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.OpenSSLEngineOptions;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The HTTPS listener's TLS on BoringSSL when the service has it (netty-tcnative, as gRPC's: {@link
 * dev.taikai.access.grpc.GrpcTls}), else the JDK's engine. The certificate, the CA and their reloading stay
 * Quarkus's ({@link HttpTlsConfig}); only the engine that encrypts changes: the JDK's spent more CPU
 * wrapping the live view's small writes for hundreds of browsers than the rest of the stream did.
 */
@ApplicationScoped
public class HttpServerTls implements HttpServerOptionsCustomizer {
    @Override
    public void customizeHttpsServer(HttpServerOptions options) {
        if (OpenSSLEngineOptions.isAvailable()) {
            options.setSslEngineOptions(new OpenSSLEngineOptions());
        }
    }
}
