package kr.c4i.gateway.norm;

/**
 * libnorm could not be loaded: not installed, or not the library this binding needs. A command line reports it as
 * the package to install rather than a stack trace.
 */
public final class NormLibraryUnavailableException extends IllegalStateException {

    /** The Debian package that provides the library this binding loads by default. */
    public static final String DEBIAN_PACKAGE = "libnorm1";

    public NormLibraryUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
