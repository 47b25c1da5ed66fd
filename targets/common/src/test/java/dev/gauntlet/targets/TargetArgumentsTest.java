package dev.gauntlet.targets;

import dev.gauntlet.api.Protocol;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TargetArgumentsTest {

    @Test
    void defaultsAreTheOldBenchmarksSettings() {
        TargetArguments args = TargetArguments.parse(new String[]{"--server", "x.Y"});

        assertThat(args.serverClass()).isEqualTo("x.Y");
        assertThat(args.settings().bind()).isEqualTo("127.0.0.1");
        assertThat(args.settings().workers()).isEqualTo(10_000);
        assertThat(args.settings().asyncThreads()).isEqualTo(100);
        assertThat(args.settings().backlog()).isEqualTo(10_000);
        assertThat(args.settings().tcpNoDelay()).isTrue();
    }

    @Test
    void flagsOverrideDefaultsAndAreEchoedInTheSettingsJson() {
        TargetArguments args = TargetArguments.parse(new String[]{"--server", "x.Y", "--workers", "200",
                "--backlog", "50", "--tcp-no-delay", "false"});

        assertThat(args.settings().toJson()).contains("\"workers\":200", "\"backlog\":50", "\"tcpNoDelay\":false",
                "\"bind\":\"127.0.0.1\"");
    }

    @Test
    void theAdminPortStaysOnLoopbackWhenTheServingPortBindsARoutableAddress() {
        TargetSettings routable = TargetArguments.parse(new String[]{"--server", "x.Y", "--bind", "0.0.0.0"}).settings();
        TargetSettings told = TargetArguments.parse(new String[]{"--server", "x.Y", "--bind", "0.0.0.0",
                "--admin-bind", "198.18.0.2"}).settings();

        assertThat(routable.adminBind()).isEqualTo("127.0.0.1");
        assertThat(told.adminBind()).isEqualTo("198.18.0.2");
        assertThat(told.toJson()).contains("\"bind\":\"0.0.0.0\",\"adminBind\":\"198.18.0.2\"");
    }

    @Test
    void mistakesAreOneLineMessages() {
        assertThatThrownBy(() -> TargetArguments.parse(new String[]{"--server", "x.Y", "--workers", "many"}))
                .hasMessage("--workers must be a whole number from 1 to 100000, got many");
        assertThatThrownBy(() -> TargetArguments.parse(new String[]{"--colour", "red"}))
                .hasMessage("unknown flag --colour");
        assertThatThrownBy(() -> TargetArguments.parse(new String[]{"--port"}))
                .hasMessage("--port needs a value");
        assertThatThrownBy(() -> TargetArguments.parse(new String[0]))
                .hasMessage("--server CLASS is required");
    }

    @Test
    void alsoNamesFurtherProtocolsOtherThanTheMainPortsEachOnce() {
        assertThat(TargetArguments.parse(new String[]{"--server", "x.Y", "--also", "h2,h2c"}).also())
                .containsExactly(Protocol.H2, Protocol.H2C);
        assertThat(TargetArguments.parse(new String[]{"--server", "x.Y"}).also()).isEmpty();

        assertThatThrownBy(() -> TargetArguments.parse(new String[]{"--server", "x.Y", "--also", "h2,h4"}))
                .hasMessage("--also: unknown protocol h4 (one of http1, https1, h2, h2c, h3)");
        assertThatThrownBy(() -> TargetArguments.parse(new String[]{"--server", "x.Y", "--also", "h2,h2"}))
                .hasMessage("--also names h2 twice");
        assertThatThrownBy(() -> TargetArguments.parse(new String[]{"--server", "x.Y", "--http2", "true", "--also", "h2c"}))
                .hasMessage("--also h2c is what the main port serves already");
    }

    @Test
    void http3IsQuicBesideATlsPortAndNeedsTls() {
        TargetArguments h3 = TargetArguments.parse(new String[]{"--server", "x.Y", "--tls", "self-signed", "--http3", "true"});
        assertThat(h3.settings().http3()).isTrue();
        assertThat(h3.settings().withTls(null).toJson()).contains("\"http3\":true");
        assertThat(TargetArguments.parse(new String[]{"--server", "x.Y", "--also", "h3"}).also()).containsExactly(Protocol.H3);

        assertThatThrownBy(() -> TargetArguments.parse(new String[]{"--server", "x.Y", "--http3", "true"}))
                .hasMessage("--http3 needs --tls (QUIC is always encrypted): add --tls self-signed");
        assertThatThrownBy(() -> TargetArguments.parse(new String[]{"--server", "x.Y", "--http3", "yes"}))
                .hasMessage("--http3 must be true or false, got yes");
    }
}
