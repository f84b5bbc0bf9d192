package dev.taikai.access.quarkus;

import dev.taikai.access.Gate;
import dev.taikai.access.grpc.GrpcGate;
import io.grpc.ForwardingServerCall;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.quarkus.grpc.GlobalInterceptor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Set;

/**
 * Every gRPC call of the service passes the access gate first (see {@link AccessControl}); a call the
 * service refuses for its input (INVALID_ARGUMENT) leaves one warning line naming the
 * caller, the method and the reason ({@link BadInputLog}).
 */
@ApplicationScoped
@GlobalInterceptor
public class AccessInterceptor implements ServerInterceptor {
    private static final Set<Status.Code> REFUSALS =
            Set.of(Status.Code.INVALID_ARGUMENT, Status.Code.RESOURCE_EXHAUSTED);

    @Inject
    Gate gate;

    @Inject
    ServiceTls tls;

    @Override
    public <Q, A> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
        ServerCall<Q, A> logged = new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
            @Override
            public void close(Status status, Metadata trailers) {
                if (REFUSALS.contains(status.getCode())) {
                    String caller = caller(call, headers);
                    BadInputLog.warn(
                            "grpc-" + status.getCode() + "-" + caller,
                            "refused " + caller + ": "
                                    + call.getMethodDescriptor().getFullMethodName() + " -> " + status.getCode() + " "
                                    + status.getDescription());
                }
                super.close(status, trailers);
            }
        };
        return new GrpcGate(gate, tls.credentials().isPresent()).interceptCall(logged, headers, next);
    }

    /** The name the caller's token was issued to, or its address when it has none. */
    private String caller(ServerCall<?, ?> call, Metadata headers) {
        if (gate.check(call.getMethodDescriptor().getFullMethodName(), headers.get(GrpcGate.AUTHORIZATION))
                        instanceof Gate.Allowed allowed
                && allowed.caller() != null) {
            return allowed.caller().name();
        }
        Object address = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
        return address == null ? "?" : address.toString();
    }
}
