package dev.gauntlet.targets;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The key and certificate a target's data port serves TLS with ({@code --tls}): a self-signed one made at start, or one
 * read from a PKCS#12 key store. Each server takes it in the form its API wants: a JSSE {@link #sslContext()}, the
 * {@link #privateKey()} and {@link #certificateChain()}, the {@link #keyStore()} or a {@link #keyStoreFile()} to read.
 *
 * <p>The self-signed certificate is an ECDSA P-256 key (what a deployment of today serves), valid from an hour ago for
 * {@link #SELF_SIGNED_VALIDITY}, for {@code localhost}, the loopback addresses and the address the target binds; a
 * client trusts it by the PEM file {@link #writeCertificatePem} writes.
 */
public final class TargetTls {
    /** Long enough for any bounded run, short enough that a leaked key soon means nothing. */
    static final Duration SELF_SIGNED_VALIDITY = Duration.ofDays(7);
    /** The environment variable holding a given key store's password (never a flag: {@code ps} shows those). */
    public static final String PASSWORD_VARIABLE = "GAUNTLET_TLS_PASSWORD";
    private static final String ALIAS = "gauntlet";

    private final String source;
    private final PrivateKey privateKey;
    private final X509Certificate[] chain;
    private final char[] password;
    private final KeyStore keyStore;
    private Path keyStoreFile;

    private TargetTls(String source, PrivateKey privateKey, X509Certificate[] chain, char[] password)
            throws GeneralSecurityException, IOException {
        this.source = source;
        this.privateKey = privateKey;
        this.chain = chain;
        this.password = password;
        this.keyStore = KeyStore.getInstance("PKCS12");
        keyStore.load(null, null);
        keyStore.setKeyEntry(ALIAS, privateKey, password, chain);
    }

    /** A fresh key and a certificate signed by it, for {@code localhost}, loopback and {@code bind}. */
    public static TargetTls selfSigned(String bind) throws GeneralSecurityException, IOException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair keys = generator.generateKeyPair();
        X500Name subject = new X500Name("CN=localhost, O=Gauntlet target (self-signed)");
        Instant now = Instant.now();
        JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject,
                new BigInteger(64, new SecureRandom()), Date.from(now.minus(Duration.ofHours(1))),
                Date.from(now.plus(SELF_SIGNED_VALIDITY)), subject, keys.getPublic());
        builder.addExtension(Extension.subjectAlternativeName, false, alternativeNames(bind));
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        try {
            X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
            return new TargetTls("self-signed", keys.getPrivate(), new X509Certificate[]{certificate}, new char[0]);
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException("cannot sign the certificate: " + e.getMessage(), e);
        }
    }

    /** The first key entry of a PKCS#12 file, its password from {@link #PASSWORD_VARIABLE} (none when unset). */
    public static TargetTls fromKeyStore(Path file) throws GeneralSecurityException, IOException {
        String variable = System.getenv(PASSWORD_VARIABLE);
        char[] password = variable == null ? new char[0] : variable.toCharArray();
        KeyStore given = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            given.load(in, password);
        }
        for (String alias : java.util.Collections.list(given.aliases())) {
            if (given.isKeyEntry(alias)) {
                Certificate[] certificates = given.getCertificateChain(alias);
                X509Certificate[] chain = new X509Certificate[certificates.length];
                for (int i = 0; i < certificates.length; i++) {
                    chain[i] = (X509Certificate) certificates[i];
                }
                return new TargetTls(file.toString(), (PrivateKey) given.getKey(alias, password), chain, password);
            }
        }
        throw new GeneralSecurityException(file + " holds no private key");
    }

    private static GeneralNames alternativeNames(String bind) {
        Set<GeneralName> names = new LinkedHashSet<>(List.of(
                new GeneralName(GeneralName.dNSName, "localhost"),
                new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                new GeneralName(GeneralName.iPAddress, "::1")));
        if (isAddressLiteral(bind) && !bind.equals("0.0.0.0") && !bind.equals("::")) {
            names.add(new GeneralName(GeneralName.iPAddress, bind));
        } else if (!isAddressLiteral(bind)) {
            names.add(new GeneralName(GeneralName.dNSName, bind));
        }
        return new GeneralNames(names.toArray(GeneralName[]::new));
    }

    private static boolean isAddressLiteral(String host) {
        return host.matches("[0-9.]+") || host.contains(":");
    }

    /** "self-signed", or the key store's path. */
    public String source() {
        return source;
    }

    public PrivateKey privateKey() {
        return privateKey;
    }

    /** The certificate first, then its issuers. */
    public X509Certificate[] certificateChain() {
        return chain.clone();
    }

    /** A PKCS#12 key store with the one key entry; its password is {@link #password()}. */
    public KeyStore keyStore() {
        return keyStore;
    }

    public char[] password() {
        return password.clone();
    }

    /** A JSSE context serving the key (TLS 1.3 and 1.2, the JDK's defaults otherwise). */
    public SSLContext sslContext() throws GeneralSecurityException {
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keyStore, password);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), null, null);
        return context;
    }

    /**
     * The key store written to a file only its owner may read, for a server whose API takes a path; deleted when the
     * JVM exits normally. Written once.
     */
    public synchronized Path keyStoreFile() throws GeneralSecurityException, IOException {
        if (keyStoreFile == null) {
            Path file = Files.createTempFile("gauntlet-target-", ".p12",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            file.toFile().deleteOnExit();
            try (OutputStream out = Files.newOutputStream(file)) {
                keyStore.store(out, password);
            }
            keyStoreFile = file;
        }
        return keyStoreFile;
    }

    /** Writes the certificate (not the key) as PEM, what a client is given to trust this target. */
    public void writeCertificatePem(Path file) throws IOException {
        try {
            String base64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(chain[0].getEncoded());
            Files.writeString(file, "-----BEGIN CERTIFICATE-----\n" + base64 + "\n-----END CERTIFICATE-----\n");
        } catch (CertificateEncodingException e) {
            throw new IOException("cannot encode the certificate: " + e.getMessage(), e);
        }
    }

    /** What {@code GET /settings} says of it. */
    String describe() {
        return source + ", " + chain[0].getSubjectX500Principal().getName() + ", valid until " + chain[0].getNotAfter().toInstant();
    }
}
