package dev.taikai.access.grpc;

import dev.taikai.access.Gate;
import dev.taikai.access.Policy;
import dev.taikai.access.tls.PeerIdentity;
import dev.taikai.access.tls.ServiceRole;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.Optional;

/**
 * Applies a {@link Gate} to every gRPC call: a call without a valid bearer token ends with UNAUTHENTICATED,
 * one whose role may not call the method with PERMISSION_DENIED, before any of it reaches the service. Over
 * TLS, a method that needs a client certificate of a role ({@link Policy#requiredPeer}) is refused with
 * PERMISSION_DENIED to a connection without one, whatever its token.
 */
public final class GrpcGate implements ServerInterceptor {
    public static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    private final Gate gate;
    private final boolean checkCertificates;

    /** A gate of tokens alone (a plaintext service). */
    public GrpcGate(Gate gate) {
        this(gate, false);
    }

    /**
     * A gate of tokens and, with {@code checkCertificates} (a TLS service), of client certificates where
     * {@link Policy#requiredPeer} asks for one.
     */
    public GrpcGate(Gate gate, boolean checkCertificates) {
        this.gate = gate;
        this.checkCertificates = checkCertificates;
    }

    @Override
    public <Q, A> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
        String method = call.getMethodDescriptor().getFullMethodName();
        Gate.Decision decision = gate.check(method, headers.get(AUTHORIZATION));
        if (!(decision instanceof Gate.Allowed)) {
            Status status = (decision instanceof Gate.Unauthenticated
                            ? Status.UNAUTHENTICATED
                            : Status.PERMISSION_DENIED)
                    .withDescription(decision.reason());
            return refuse(call, status);
        }
        Optional<ServiceRole> peer = checkCertificates ? Policy.requiredPeer(method) : Optional.empty();
        if (peer.isPresent()) {
            Optional<PeerIdentity> caller = GrpcTls.caller(call);
            if (caller.isEmpty() || caller.get().role() != peer.get()) {
                return refuse(
                        call,
                        Status.PERMISSION_DENIED.withDescription(method + " needs the client certificate of a "
                                + peer.get().id() + "; this connection "
                                + caller.map(c -> "presented that of " + c).orElse("presented none of Taikai's")));
            }
        }
        if (call.getMethodDescriptor().getType() == MethodDescriptor.MethodType.SERVER_STREAMING) {
            return next.startCall(new Rechecked<>(call, method, headers.get(AUTHORIZATION)), headers);
        }
        return next.startCall(call, headers);
    }

    /**
     * A server stream (a watch) whose token is checked again before a message once a second has passed:
     * a stream of a token revoked since ends with UNAUTHENTICATED, as a new call would, and says it is
     * cancelled to the service, which sends no more.
     */
    private final class Rechecked<Q, A> extends ForwardingServerCall.SimpleForwardingServerCall<Q, A> {
        private final String method;
        private final String authorization;
        private long checkedAt = System.nanoTime();
        private volatile boolean ended;

        Rechecked(ServerCall<Q, A> call, String method, String authorization) {
            super(call);
            this.method = method;
            this.authorization = authorization;
        }

        @Override
        public synchronized void sendMessage(A message) {
            if (ended) {
                return;
            }
            long now = System.nanoTime();
            if (now - checkedAt >= RECHECK_NANOS) {
                checkedAt = now;
                Gate.Decision decision = gate.check(method, authorization);
                if (!(decision instanceof Gate.Allowed)) {
                    ended = true;
                    super.close(
                            Status.UNAUTHENTICATED.withDescription("the stream ends: " + decision.reason()),
                            new Metadata());
                    return;
                }
            }
            super.sendMessage(message);
        }

        @Override
        public synchronized void close(Status status, Metadata trailers) {
            if (!ended) {
                ended = true;
                super.close(status, trailers);
            }
        }

        @Override
        public boolean isCancelled() {
            return ended || super.isCancelled();
        }
    }

    /** How often an open stream's token is checked again. */
    static final long RECHECK_NANOS = 1_000_000_000L;

    private static <Q, A> ServerCall.Listener<Q> refuse(ServerCall<Q, A> call, Status status) {
        call.close(status, new Metadata());
        return new ServerCall.Listener<>() {};
    }
}
