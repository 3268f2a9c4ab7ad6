package kr.c4i.gateway.tools;

import java.util.Optional;

import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

import kr.c4i.gateway.dds.DdsLibraryUnavailableException;
import kr.c4i.gateway.norm.NormLibraryUnavailableException;

/**
 * How every tool reports a native library that is not installed: one line naming the Debian package to install, no
 * stack trace, {@link ExitCode#ENVIRONMENT_UNSUPPORTED}. Any other failure goes on to picocli's default handling.
 * The adapters' own exception for it is recognised anywhere in the failure's cause chain: a node's Spring context
 * wraps it in several layers.
 */
public final class MissingLibrary implements IExecutionExceptionHandler {

    /** A native library the tools load, with the Debian package that provides it. */
    public enum Library {

        /** Cyclone DDS, for the {@code dds} transport and WAN link. */
        CYCLONE_DDS("Cyclone DDS (libddsc)", DdsLibraryUnavailableException.DEBIAN_PACKAGE,
                DdsLibraryUnavailableException.class),
        /** NORM, for the {@code norm} WAN link. */
        NORM("NORM (libnorm)", NormLibraryUnavailableException.DEBIAN_PACKAGE, NormLibraryUnavailableException.class);

        private final String title;
        private final String debianPackage;
        private final Class<? extends IllegalStateException> unavailable;

        Library(String title, String debianPackage, Class<? extends IllegalStateException> unavailable) {
            this.title = title;
            this.debianPackage = debianPackage;
            this.unavailable = unavailable;
        }

        /** The one line a command prints when the library is missing. */
        public String advice() {
            return this.title + " is not installed on this machine: apt-get install " + this.debianPackage;
        }

        private boolean threw(Throwable failure) {
            return this.unavailable.isInstance(failure);
        }
    }

    /** The library whose loading failed somewhere in {@code failure}'s causes, if that is what failed. */
    public static Optional<Library> in(Throwable failure) {
        for (Throwable cause : Causes.of(failure)) {
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
