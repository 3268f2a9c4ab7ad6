package kr.c4i.gateway.tools;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Optional;
import java.util.Set;

import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

import kr.c4i.gateway.dds.cyclone.internal.Ddsc;
import kr.c4i.gateway.norm.internal.Norm;

/**
 * How every tool reports a native library that is not installed: one line naming the Debian package to install, no
 * stack trace, {@link ExitCode#ENVIRONMENT_UNSUPPORTED}. Any other failure goes on to picocli's default handling.
 *
 * <p>The adapters have no exception type of their own for this: {@link Ddsc#load} and {@link Norm#load} throw an
 * {@link IllegalStateException} whose message starts with "Unable to load" (and names the package). That exception,
 * thrown by one of those two classes, anywhere in the failure's cause chain (a node's Spring context wraps it in
 * several layers), is what is recognised here.
 */
public final class MissingLibrary implements IExecutionExceptionHandler {

    /** A native library the tools load, with the Debian package that provides it. */
    public enum Library {

        /** Cyclone DDS, for the {@code dds} transport and WAN link. */
        CYCLONE_DDS("Cyclone DDS (libddsc)", "libddsc0debian", Ddsc.class),
        /** NORM, for the {@code norm} WAN link. */
        NORM("NORM (libnorm)", "libnorm1", Norm.class);

        private final String title;
        private final String debianPackage;
        private final Class<?> loader;

        Library(String title, String debianPackage, Class<?> loader) {
            this.title = title;
            this.debianPackage = debianPackage;
            this.loader = loader;
        }

        /** The one line a command prints when the library is missing. */
        public String advice() {
            return this.title + " is not installed on this machine: apt-get install " + this.debianPackage;
        }

        private boolean threw(Throwable failure) {
            StackTraceElement[] trace = failure.getStackTrace();
            return failure instanceof IllegalStateException && failure.getMessage() != null
                    && failure.getMessage().startsWith("Unable to load") && trace.length > 0
                    && trace[0].getClassName().equals(this.loader.getName());
        }
    }

    /** The library whose loading failed somewhere in {@code failure}'s causes, if that is what failed. */
    public static Optional<Library> in(Throwable failure) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable cause = failure; cause != null && seen.add(cause); cause = cause.getCause()) {
            for (Library library : Library.values()) {
                if (library.threw(cause)) {
                    return Optional.of(library);
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine command, ParseResult parseResult) throws Exception {
        Optional<Library> missing = in(ex);
        if (missing.isEmpty()) {
            throw ex;
        }
        command.getOut().flush();
        command.getErr().println(command.getColorScheme().errorText(missing.get().advice()));
        command.getErr().flush();
        return ExitCode.ENVIRONMENT_UNSUPPORTED.code();
    }
}
