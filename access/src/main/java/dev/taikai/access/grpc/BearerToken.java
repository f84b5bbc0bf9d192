package dev.taikai.access.grpc;

import io.grpc.CallCredentials;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executor;

/** Client credentials: sends {@code authorization: Bearer <token>} with every call. */
public final class BearerToken extends CallCredentials {
    private final String token;

    public BearerToken(String token) {
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("an empty bearer token");
        }
        this.token = token.strip();
    }

    /** The token kept in {@code file} (its first line). */
    public static BearerToken fromFile(Path file) throws java.io.IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8).strip();
        if (text.isEmpty()) {
            throw new java.io.IOException("the token file " + file + " is empty");
        }
        return new BearerToken(text.lines().findFirst().orElseThrow());
    }

    @Override
    public void applyRequestMetadata(RequestInfo info, Executor executor, MetadataApplier applier) {
        try {
            Metadata headers = new Metadata();
            headers.put(GrpcGate.AUTHORIZATION, "Bearer " + token);
            applier.apply(headers);
        } catch (RuntimeException e) {
            applier.fail(Status.UNAUTHENTICATED
                    .withDescription("could not attach the token")
                    .withCause(e));
        }
    }

    /** The same, for a whole channel: every call through it carries the token. */
    public ClientInterceptor interceptor() {
        return new ClientInterceptor() {
            @Override
            public <Q, A> ClientCall<Q, A> interceptCall(
                    MethodDescriptor<Q, A> method, CallOptions options, Channel next) {
                return next.newCall(method, options.withCallCredentials(BearerToken.this));
            }
        };
    }

    @Override
    public String toString() {
        return "BearerToken[hidden]";
    }
}
