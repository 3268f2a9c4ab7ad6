package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class KmtfBenchCommandTest {

    @Test
    void aShortRunPrintsBothPathsAndAcceptsEveryMessageOfTheMix() {
        CliDriver.Result r = CliDriver.run("kmtf-bench", "--messages", "50", "--warmup", "1", "--rounds", "1",
                "--seconds", "1");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(CommandLine.ExitCode.OK);
        assertThat(r.out()).as(r.toString()).contains("50 messages of bench's mix")
                .containsPattern("\\| outbox: KmtfValidator.validate \\| \\d+ \\(\\d+-\\d+\\) \\|")
                .containsPattern("\\| receive: InboundValidator.check \\| \\d+ \\(\\d+-\\d+\\) \\|");
    }

    @Test
    void aSizeNoCatalogueTypeTakesIsAUsageError() {
        CliDriver.Result r = CliDriver.run("kmtf-bench", "--size", "-1");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(r.err()).as(r.toString()).contains("Invalid value for option '--size': -1 is out of range");
    }
}
