package dev.taikai.access.tls;

import java.security.cert.X509Certificate;
import java.util.Optional;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/** Who a certificate was issued to: its subject's common name and {@link ServiceRole}. */
public record PeerIdentity(String name, ServiceRole role) {
    /** The organization every Taikai certificate names. */
    public static final String ORGANIZATION = "Taikai";

    /**
     * The identity in {@code certificate}'s subject, or empty when the subject does not have the form
     * {@code CN=<name>,OU=<role>,O=Taikai} with a known role.
     */
    public static Optional<PeerIdentity> of(X509Certificate certificate) {
        return parse(certificate.getSubjectX500Principal().getName());
    }

    /** {@link #of} from an RFC 2253 subject name. */
    public static Optional<PeerIdentity> parse(String subject) {
        String name = null;
        String unit = null;
        String organization = null;
        try {
            for (Rdn rdn : new LdapName(subject).getRdns()) {
                String value = String.valueOf(rdn.getValue());
                switch (rdn.getType().toUpperCase(java.util.Locale.ROOT)) {
                    case "CN" -> name = value;
                    case "OU" -> unit = value;
                    case "O" -> organization = value;
                    default -> {
                        return Optional.empty();
                    }
                }
            }
        } catch (InvalidNameException e) {
            return Optional.empty();
        }
        if (name == null || unit == null || !ORGANIZATION.equals(organization)) {
            return Optional.empty();
        }
        String holder = name;
        return ServiceRole.byId(unit).map(role -> new PeerIdentity(holder, role));
    }

    /** The subject of its certificate, as RFC 2253 writes it: {@code CN=<name>,OU=<role>,O=Taikai}. */
    public String subject() {
        return "CN=" + Rdn.escapeValue(name) + ",OU=" + role.id() + ",O=" + ORGANIZATION;
    }

    @Override
    public String toString() {
        return name + " (" + role.id() + ")";
    }
}
