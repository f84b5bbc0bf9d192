package dev.taikai.access.grpc;

import dev.taikai.access.tls.PeerIdentity;
import dev.taikai.access.tls.TlsCredentials;
import io.grpc.Grpc;
import io.grpc.ServerCall;
import io.grpc.netty.GrpcSslContexts;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Optional;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/** gRPC over TLS with {@link TlsCredentials}: the Netty contexts of servers and clients, and who called. */
public final class GrpcTls {
    private GrpcTls() {}

    /**
     * BoringSSL when the service has it (netty-tcnative, on Linux x86-64 and ARM64), else the JDK's
     * engine: the same protocols and checks, with the key and trust managers that reload the files.
     */
    private static SslProvider provider() {
        return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
    }

    /** Which TLS implementation gRPC uses here, for the service's start line. */
    public static String implementation() {
        return OpenSsl.isAvailable() ? OpenSsl.versionString() : "the JDK's SSLEngine";
    }

    /**
     * A server's context: its certificate, and its clients' certificates checked against the CA. With
     * {@code requireClientCertificate} a client without one cannot connect; without it, a client may come
     * with a token alone.
     */
    public static SslContext server(TlsCredentials credentials, boolean requireClientCertificate) throws SSLException {
        return GrpcSslContexts.configure(SslContextBuilder.forServer(credentials.keyManager()), provider())
                .trustManager(credentials.clientTrust())
                .clientAuth(requireClientCertificate ? ClientAuth.REQUIRE : ClientAuth.OPTIONAL)
                .build();
    }

    /** A client's context: its own certificate, and the server's checked against the CA and the host dialled. */
    public static SslContext client(TlsCredentials credentials) throws SSLException {
        return GrpcSslContexts.configure(SslContextBuilder.forClient(), provider())
                .keyManager(credentials.keyManager())
                .trustManager(credentials.serverTrust())
                .build();
    }

    /** The identity in the client certificate of {@code call}'s connection, if it came with one. */
    public static Optional<PeerIdentity> caller(ServerCall<?, ?> call) {
        SSLSession session = call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
        if (session == null) {
            return Optional.empty();
        }
        try {
            Certificate[] chain = session.getPeerCertificates();
            return chain.length > 0 && chain[0] instanceof X509Certificate leaf
                    ? PeerIdentity.of(leaf)
                    : Optional.empty();
        } catch (SSLPeerUnverifiedException e) {
            return Optional.empty();
        }
    }

    /** Whether {@code call} came over TLS. */
    public static boolean encrypted(ServerCall<?, ?> call) {
        return call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION) != null;
    }
}
