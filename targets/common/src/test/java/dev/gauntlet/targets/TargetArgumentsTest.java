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

        assertThatThrownBy(() -> TargetArguments.parse(new String[]{"--server", "x.Y", "--also", "h2,h3"}))
                .hasMessage("--also: unknown protocol h3 (one of http1, https1, h2, h2c)");
        assertThatThrownBy(() -> TargetArguments.parse(new String[]{"--server", "x.Y", "--also", "h2,h2"}))
                .hasMessage("--also names h2 twice");
        assertThatThrownBy(() -> TargetArguments.parse(new String[]{"--server", "x.Y", "--http2", "true", "--also", "h2c"}))
                .hasMessage("--also h2c is what the main port serves already");
    }
}
