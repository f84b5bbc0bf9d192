package dev.taikai.cli.cluster;

import dev.taikai.access.tls.LocalCa;
import dev.taikai.access.tls.PeerIdentity;
import dev.taikai.access.tls.ServiceRole;
import dev.taikai.access.tls.TlsCredentials;
import dev.taikai.access.tls.TlsFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.List;

/**
 * The certificates of a local cluster, under {@code <cluster dir>/tls}: a CA made for this cluster
 * ({@code ca/}), and for each member a folder {@code <name>/} with its certificate, key and the CA's
 * certificate, as a Kubernetes Secret from cert-manager holds them. Every certificate names
 * {@code 127.0.0.1} and {@code localhost}, where the members listen. {@code admin/} is the operator's:
 * the command line's and the tests' client certificate.
 */
public final class ClusterCertificates {
    /** Long enough for any local run; a cluster that outlives it is started again. */
    static final Duration VALIDITY = Duration.ofDays(90);

    private static final List<String> HOSTS = List.of("127.0.0.1", "localhost");
    private static final String ADMIN = "admin";

    private final Path directory;
    private final LocalCa ca;

    private ClusterCertificates(Path directory, LocalCa ca) {
        this.directory = directory;
        this.ca = ca;
    }

    /** Makes a new CA in {@code <clusterDirectory>/tls/ca} and the operator's certificate. */
    public static ClusterCertificates create(Path clusterDirectory) throws IOException {
        Path directory = clusterDirectory.resolve("tls");
        try {
            LocalCa ca = LocalCa.create("Taikai local cluster CA", VALIDITY);
            ca.save(directory.resolve("ca"));
            ClusterCertificates certificates = new ClusterCertificates(directory, ca);
            certificates.issue(ADMIN, ServiceRole.ADMIN);
            return certificates;
        } catch (GeneralSecurityException e) {
            throw new IOException("could not make the cluster's certificates: " + e.getMessage(), e);
        }
    }

    /** The CA kept in {@code <clusterDirectory>/tls}, if the cluster runs TLS. */
    public static java.util.Optional<ClusterCertificates> existing(Path clusterDirectory) throws IOException {
        Path directory = clusterDirectory.resolve("tls");
        if (!Files.exists(directory.resolve("ca").resolve(TlsFiles.CA))) {
            return java.util.Optional.empty();
        }
        try {
            return java.util.Optional.of(new ClusterCertificates(directory, LocalCa.load(directory.resolve("ca"))));
        } catch (GeneralSecurityException e) {
            throw new IOException(
                    "cannot read the cluster's CA in " + directory.resolve("ca") + ": " + e.getMessage(), e);
        }
    }

    /** Issues {@code name} a certificate of {@code role} (replacing any it had) and returns its folder. */
    public Path issue(String name, ServiceRole role) throws IOException {
        Path folder = directory.resolve(name);
        try {
            ca.issue(new PeerIdentity(name, role), HOSTS, VALIDITY, folder);
        } catch (GeneralSecurityException e) {
            throw new IOException("could not issue " + name + " a certificate: " + e.getMessage(), e);
        }
        return folder;
    }

    /** The folder of {@code name}'s certificate. */
    public Path folder(String name) {
        return directory.resolve(name);
    }

    /** The CA's certificate, for clients such as {@code curl --cacert}. */
    public Path caCertificate() {
        return directory.resolve("ca").resolve(TlsFiles.CA);
    }

    /** The operator's credentials: a client certificate of role admin, trusting the cluster's CA. */
    public TlsCredentials operator() throws IOException {
        try {
            return TlsCredentials.watch(TlsFiles.in(folder(ADMIN)));
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot read " + folder(ADMIN) + ": " + e.getMessage(), e);
        }
    }
}
