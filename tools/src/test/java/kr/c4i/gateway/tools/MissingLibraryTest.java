package kr.c4i.gateway.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.Callable;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import kr.c4i.gateway.dds.DdsLibraryUnavailableException;
import kr.c4i.gateway.norm.NormLibraryUnavailableException;

/**
 * The adapters' own "library missing" exceptions (that their loaders throw them is their modules' tests: DdscTest,
 * NormLoadTest) become one line naming the package and exit code 4.
 */
class MissingLibraryTest {

    @Test
    void missingCycloneDdsIsOneLineNamingThePackageAndExitCode4() {
        Failed r = run(wrappedAsSpringWould(new DdsLibraryUnavailableException("Unable to load Cyclone DDS")));
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCode.ENVIRONMENT_UNSUPPORTED.code()).isEqualTo(4);
        assertThat(r.err().lines().toList()).as(r.toString())
                .containsExactly("Cyclone DDS (libddsc) is not installed on this machine: apt-get install libddsc0debian");
    }

    @Test
    void missingNormIsOneLineNamingThePackageAndExitCode4() {
        Failed r = run(wrappedAsSpringWould(
                new NormLibraryUnavailableException("Unable to load NORM", new IllegalArgumentException("absent"))));
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(4);
        assertThat(r.err().lines().toList()).as(r.toString())
                .containsExactly("NORM (libnorm) is not installed on this machine: apt-get install libnorm1");
    }

    @Test
    void anyOtherFailureKeepsPicocliDefaultHandling() {
        Failed r = run(new IllegalStateException("Unable to load the catalogue"));
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCode.SOFTWARE.code());
        assertThat(r.err()).as(r.toString()).contains("Unable to load the catalogue", "\tat ");
        assertThat(MissingLibrary.in(new RuntimeException(new IllegalStateException("Unable to load x")))).isEmpty();
    }

    /** A node's bridge meets it inside its Spring context, some layers down. */
    private static RuntimeException wrappedAsSpringWould(Throwable failure) {
        assertThat(failure).isInstanceOf(IllegalStateException.class);
        return new IllegalStateException("Application run failed",
                new RuntimeException("Error creating bean with name 'transport'", failure));
    }

    private static Failed run(RuntimeException failure) {
        @Command(name = "fails")
        final class Fails implements Callable<Integer> {
            @Override
            public Integer call() {
                throw failure;
            }
        }
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new Fails()).setExecutionExceptionHandler(new MissingLibrary())
                .setErr(new PrintWriter(err, true)).setOut(new PrintWriter(new StringWriter(), true));
        int code = cli.execute();
        return new Failed(code, err.toString());
    }

    private record Failed(int exitCode, String err) {
    }
}
