package dev.taikai.access.quarkus;

import dev.taikai.access.Gate;
import dev.taikai.access.grpc.GrpcGate;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.quarkus.grpc.GlobalInterceptor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Every gRPC call of the service passes the access gate first (see {@link AccessControl}). */
@ApplicationScoped
@GlobalInterceptor
public class AccessInterceptor implements ServerInterceptor {
    @Inject
    Gate gate;

    @Override
    public <Q, A> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
        return new GrpcGate(gate).interceptCall(call, headers, next);
    }
}
