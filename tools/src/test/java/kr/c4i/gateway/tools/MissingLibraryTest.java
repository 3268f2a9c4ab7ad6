package kr.c4i.gateway.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.Callable;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import kr.c4i.gateway.dds.cyclone.internal.Ddsc;
import kr.c4i.gateway.norm.internal.Norm;

/**
 * The adapters' own "library missing" failures, made by asking them to load a library that does not exist (so the
 * machine may have both installed), become one line naming the package and exit code 4.
 */
class MissingLibraryTest {

    @Test
    void missingCycloneDdsIsOneLineNamingThePackageAndExitCode4() throws Exception {
        Failed r = run(wrappedAsSpringWould(cycloneFailure()));
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCode.ENVIRONMENT_UNSUPPORTED.code()).isEqualTo(4);
        assertThat(r.err().lines().toList()).as(r.toString())
                .containsExactly("Cyclone DDS (libddsc) is not installed on this machine: apt-get install libddsc0debian");
    }

    @Test
    void missingNormIsOneLineNamingThePackageAndExitCode4() {
        Failed r = run(wrappedAsSpringWould(catchThrowable(() -> Norm.load("libno-such-norm.so.1"))));
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

    /** The real exception Ddsc throws when no candidate loads (its chain with Debian's names would load here). */
    private static Throwable cycloneFailure() throws Exception {
        Method loadFirst = Ddsc.class.getDeclaredMethod("loadFirst", List.class);
        loadFirst.setAccessible(true);
        Throwable failure = catchThrowable(() -> loadFirst.invoke(null, List.of("libno-such-ddsc.so.0")));
        assertThat(failure).isInstanceOf(InvocationTargetException.class);
        return failure.getCause();
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
