package dev.taikai.access.quarkus;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.OpenSSLEngineOptions;
import org.junit.jupiter.api.Test;

class HttpServerTlsTest {
    @Test
    void theHttpsListenerEncryptsWithBoringSslWhereTheServicesHaveIt() {
        HttpServerOptions https = new HttpServerOptions();
        new HttpServerTls().customizeHttpsServer(https);
        // the services and these tests have netty-tcnative for Linux x86-64 (and the services for ARM64)
        if (System.getProperty("os.arch").equals("amd64")) {
            assertInstanceOf(OpenSSLEngineOptions.class, https.getSslEngineOptions());
        }
        HttpServerOptions http = new HttpServerOptions();
        new HttpServerTls().customizeHttpServer(http);
        assertNull(http.getSslEngineOptions(), "the plaintext listener (none when TLS is on) is left alone");
    }
}
