package dev.taikai.access.tls;

import java.nio.file.Path;

/**
 * A service's certificate chain, its private key (PKCS#8) and the CA certificates it trusts, as PEM
 * files. {@link #in} names them as cert-manager's Secrets do, so that a mounted Secret is such a folder.
 */
public record TlsFiles(Path certificate, Path key, Path ca) {
    public static final String CERTIFICATE = "tls.crt";
    public static final String KEY = "tls.key";
    public static final String CA = "ca.crt";

    /** {@code tls.crt}, {@code tls.key} and {@code ca.crt} in {@code directory}. */
    public static TlsFiles in(Path directory) {
        return new TlsFiles(directory.resolve(CERTIFICATE), directory.resolve(KEY), directory.resolve(CA));
    }
}
