package dev.taikai.access.tls;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority of one's own, for a cluster on one machine or a test: it issues each service
 * a certificate naming its {@link PeerIdentity} and the host names it is reached by. Keys are ECDSA
 * P-256, written as unencrypted PKCS#8 PEM readable by this user only; certificates as PEM. Every file
 * is written whole and then moved into place, so a service that watches it never reads half of one.
 */
public final class LocalCa {
    /** The CA's own files in its folder: its certificate is also every issued folder's {@code ca.crt}. */
    public static final String CA_KEY = "ca.key";

    private static final String SIGNATURE = "SHA256withECDSA";
    /** Issued certificates start an hour back, for clocks that are a little behind. */
    private static final Duration SKEW = Duration.ofHours(1);

    private final PrivateKey key;
    private final X509Certificate certificate;

    private LocalCa(PrivateKey key, X509Certificate certificate) {
        this.key = key;
        this.certificate = certificate;
    }

    /** A new self-signed CA named {@code name}, valid for {@code validity}. */
    public static LocalCa create(String name, Duration validity) throws GeneralSecurityException {
        KeyPair pair = newKeyPair();
        X500Name subject = new X500NameBuilder(BCStyle.INSTANCE)
                .addRDN(BCStyle.O, PeerIdentity.ORGANIZATION)
                .addRDN(BCStyle.CN, name)
                .build();
        Instant now = Instant.now();
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                            subject,
                            serial(),
                            Date.from(now.minus(SKEW)),
                            Date.from(now.plus(validity)),
                            subject,
                            pair.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(
                            Extension.subjectKeyIdentifier,
                            false,
                            extensions.createSubjectKeyIdentifier(pair.getPublic()));
            return new LocalCa(pair.getPrivate(), sign(builder, pair.getPrivate()));
        } catch (IOException e) {
            throw new GeneralSecurityException("could not build the CA certificate: " + e.getMessage(), e);
        }
    }

    /** The CA kept in {@code directory} ({@code ca.crt} and {@code ca.key}) by {@link #save}. */
    public static LocalCa load(Path directory) throws IOException, GeneralSecurityException {
        Path keyFile = directory.resolve(CA_KEY);
        Path certificateFile = directory.resolve(TlsFiles.CA);
        return new LocalCa(readKey(keyFile), readCertificate(certificateFile));
    }

    /** Writes {@code ca.crt} and {@code ca.key} (mode 600) to {@code directory}. */
    public void save(Path directory) throws IOException {
        Files.createDirectories(directory);
        write(directory.resolve(CA_KEY), pem(new JcaPKCS8Generator(key, null).generate()));
        write(directory.resolve(TlsFiles.CA), pem(certificate));
    }

    public X509Certificate certificate() {
        return certificate;
    }

    /**
     * Issues {@code holder} a certificate for server and client use, valid for {@code validity}, naming
     * {@code hosts} (DNS names, or IP addresses such as {@code 127.0.0.1}) as its subject alternative
     * names, and writes it to {@code directory} as {@link TlsFiles#in}: the key first, then the
     * certificate, then the CA's certificate.
     */
    public TlsFiles issue(PeerIdentity holder, List<String> hosts, Duration validity, Path directory)
            throws IOException, GeneralSecurityException {
        KeyPair pair = newKeyPair();
        X509Certificate issued = sign(holder, hosts, validity, pair);
        TlsFiles files = TlsFiles.in(directory);
        Files.createDirectories(directory);
        write(files.key(), pem(new JcaPKCS8Generator(pair.getPrivate(), null).generate()));
        write(files.certificate(), pem(issued));
        write(files.ca(), pem(certificate));
        return files;
    }

    private X509Certificate sign(PeerIdentity holder, List<String> hosts, Duration validity, KeyPair pair)
            throws GeneralSecurityException, IOException {
        Instant now = Instant.now();
        List<GeneralName> names = new ArrayList<>();
        for (String host : hosts) {
            names.add(new GeneralName(isAddress(host) ? GeneralName.iPAddress : GeneralName.dNSName, host));
        }
        JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                        X500Name.getInstance(
                                certificate.getSubjectX500Principal().getEncoded()),
                        serial(),
                        Date.from(now.minus(SKEW)),
                        Date.from(now.plus(validity)),
                        subject(holder),
                        pair.getPublic())
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(new KeyPurposeId[] {
                    KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth
                }))
                .addExtension(
                        Extension.subjectKeyIdentifier, false, extensions.createSubjectKeyIdentifier(pair.getPublic()))
                .addExtension(
                        Extension.authorityKeyIdentifier, false, extensions.createAuthorityKeyIdentifier(certificate));
        if (!names.isEmpty()) {
            builder.addExtension(
                    Extension.subjectAlternativeName, false, new GeneralNames(names.toArray(GeneralName[]::new)));
        }
        return sign(builder, key);
    }

    /**
     * {@code holder}'s subject, its names in the order cert-manager writes them (organization, unit,
     * common name), so that its RFC 2253 form is {@code CN=<name>,OU=<role>,O=Taikai} as Kafka's principal
     * rules and {@link PeerIdentity} read it.
     */
    private static X500Name subject(PeerIdentity holder) {
        return new X500NameBuilder(BCStyle.INSTANCE)
                .addRDN(BCStyle.O, PeerIdentity.ORGANIZATION)
                .addRDN(BCStyle.OU, holder.role().id())
                .addRDN(BCStyle.CN, holder.name())
                .build();
    }

    private static boolean isAddress(String host) {
        return host.matches("[0-9.]+") || host.contains(":");
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey signer)
            throws GeneralSecurityException {
        try {
            X509CertificateHolder holder = builder.build(new JcaContentSignerBuilder(SIGNATURE).build(signer));
            return new JcaX509CertificateConverter().getCertificate(holder);
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException("could not sign a certificate: " + e.getMessage(), e);
        }
    }

    private static KeyPair newKeyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    private static BigInteger serial() {
        return new BigInteger(128, new SecureRandom());
    }

    /** The PEM text of a certificate or a PKCS#8 key object. */
    private static String pem(Object object) throws IOException {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(object);
        }
        return text.toString();
    }

    /** The unencrypted PKCS#8 private key in a PEM file. */
    public static PrivateKey readKey(Path file) throws IOException, GeneralSecurityException {
        if (!(firstObject(file) instanceof PrivateKeyInfo info)) {
            throw new GeneralSecurityException(file + " does not hold an unencrypted PKCS#8 private key");
        }
        return new JcaPEMKeyConverter().getPrivateKey(info);
    }

    /** The first certificate in a PEM file. */
    public static X509Certificate readCertificate(Path file) throws IOException, GeneralSecurityException {
        if (!(firstObject(file) instanceof X509CertificateHolder holder)) {
            throw new GeneralSecurityException(file + " does not hold a PEM certificate");
        }
        return new JcaX509CertificateConverter().getCertificate(holder);
    }

    /** The first PEM object in {@code file}. */
    private static Object firstObject(Path file) throws IOException, GeneralSecurityException {
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.US_ASCII);
                PEMParser parser = new PEMParser(reader)) {
            return readObject(parser, file);
        }
    }

    private static Object readObject(PEMParser parser, Path file) throws IOException, GeneralSecurityException {
        try {
            return parser.readObject();
        } catch (RuntimeException e) { // Bouncy Castle's decoders throw unchecked exceptions on bad base64
            throw new GeneralSecurityException(file + " is not well-formed PEM: " + e.getMessage(), e);
        }
    }

    /** Writes a file readable by this user only (as a temporary file is made), then moves it into place. */
    private static void write(Path file, String text) throws IOException {
        Path partial = Files.createTempFile(file.getParent(), "." + file.getFileName(), ".partial");
        Files.writeString(partial, text, StandardCharsets.US_ASCII);
        Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
