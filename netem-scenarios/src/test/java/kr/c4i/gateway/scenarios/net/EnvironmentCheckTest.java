package kr.c4i.gateway.scenarios.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

import org.junit.jupiter.api.Test;

class EnvironmentCheckTest {

    @Test
    void rootWithEveryToolHasNoProblem() {
        assertThat(EnvironmentCheck.problems(Optional.of(0), tool -> true)).isEmpty();
    }

    @Test
    void anotherUserIsToldToUseRoot() {
        assertThat(EnvironmentCheck.problems(Optional.of(1000), tool -> true)).singleElement().asString()
                .contains("not running as root (effective uid 1000)", "sudo");
    }

    @Test
    void missingToolsAreNamedWithThePackagesToInstall() {
        assertThat(EnvironmentCheck.problems(Optional.of(0), tool -> !tool.equals("nft") && !tool.equals("ethtool")))
                .containsExactly("'nft' not found on PATH", "'ethtool' not found on PATH",
                        "install the missing tools: apt-get install -y nftables ethtool");
    }

    @Test
    void readsTheEffectiveUidFromProcStatus() {
        assertThat(EnvironmentCheck.parseEffectiveUid("Name:\tjava\nUid:\t1000\t0\t0\t0\nGid:\t0\n")).contains(0);
        assertThat(EnvironmentCheck.parseEffectiveUid("Name:\tjava\n")).isEmpty();
    }
}
