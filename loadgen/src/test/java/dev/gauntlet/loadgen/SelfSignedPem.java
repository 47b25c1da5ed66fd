package dev.gauntlet.loadgen;

import dev.gauntlet.targets.TargetTls;

import java.nio.file.Path;

/**
 * A target's self-signed certificate for 127.0.0.1, as {@code --tls self-signed} makes it, and its PEM file for a
 * load's {@code --cacert}: the TLS tests' server key and the one certificate their loads trust.
 */
record SelfSignedPem(TargetTls tls, Path pem) {

    static SelfSignedPem in(Path dir) throws Exception {
        TargetTls tls = TargetTls.selfSigned("127.0.0.1");
        Path pem = dir.resolve("target.pem");
        tls.writeCertificatePem(pem);
        return new SelfSignedPem(tls, pem);
    }
}
