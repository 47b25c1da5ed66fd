package dev.gauntlet.api;

/**
 * Which server certificates an {@code https} load accepts: the JDK's trusted authorities, a given certificate (a PEM
 * file, such as the one a {@code --tls self-signed} target prints), or — {@code insecure} — any, without checking the
 * host name either, as h2load and wrk do.
 *
 * @param caCertificate a PEM file of the certificate (or its issuer) to trust beside nothing else; null: the JDK's
 * @param insecure      accept any certificate for any host
 */
public record TlsTrust(String caCertificate, boolean insecure) {
    /** The JDK's trusted authorities, the host name checked. */
    public static final TlsTrust SYSTEM = new TlsTrust(null, false);

    public TlsTrust {
        if (insecure && caCertificate != null) {
            throw new IllegalArgumentException("a certificate to trust and insecure exclude each other: choose one");
        }
    }
}
