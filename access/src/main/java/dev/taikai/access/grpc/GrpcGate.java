package dev.taikai.access.grpc;

import dev.taikai.access.Gate;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;

/**
 * Applies a {@link Gate} to every gRPC call: a call without a valid bearer token ends with UNAUTHENTICATED,
 * one whose role may not call the method with PERMISSION_DENIED, before any of it reaches the service.
 */
public final class GrpcGate implements ServerInterceptor {
    public static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    private final Gate gate;

    public GrpcGate(Gate gate) {
        this.gate = gate;
    }

    @Override
    public <Q, A> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
        Gate.Decision decision = gate.check(call.getMethodDescriptor().getFullMethodName(), headers.get(AUTHORIZATION));
        if (decision instanceof Gate.Allowed) {
            return next.startCall(call, headers);
        }
        Status status = decision instanceof Gate.Denied denied
                ? Status.PERMISSION_DENIED.withDescription(denied.reason())
                : Status.UNAUTHENTICATED.withDescription(((Gate.Unauthenticated) decision).reason());
        call.close(status, new Metadata());
        return new ServerCall.Listener<>() {};
    }
}
