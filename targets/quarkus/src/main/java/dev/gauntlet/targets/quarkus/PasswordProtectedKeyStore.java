package dev.gauntlet.targets.quarkus;

import dev.gauntlet.targets.TargetTls;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The target's key and certificate in a PKCS#12 file of their own, under a random password, for Quarkus' TLS
 * registry. The target's own key store file will not do for a self-signed certificate: its password is empty, which
 * Quarkus' configuration reads as no password at all, and it then refuses the key store. The file is readable by its
 * owner only and deleted when the JVM exits normally.
 *
 * @param file     the PKCS#12 file
 * @param password its password and its key's
 */
record PasswordProtectedKeyStore(Path file, String password) {
    private static final String ALIAS = "gauntlet";

    static PasswordProtectedKeyStore of(TargetTls tls) throws GeneralSecurityException, IOException {
        byte[] random = new byte[16];
        new SecureRandom().nextBytes(random);
        String password = HexFormat.of().formatHex(random);
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        keyStore.load(null, null);
        keyStore.setKeyEntry(ALIAS, tls.privateKey(), password.toCharArray(), tls.certificateChain());
        Path file = Files.createTempFile("gauntlet-quarkus-", ".p12",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        file.toFile().deleteOnExit();
        try (OutputStream out = Files.newOutputStream(file)) {
            keyStore.store(out, password.toCharArray());
        }
        return new PasswordProtectedKeyStore(file, password);
    }
}
