package kr.c4i.gateway.dds;

/**
 * Cyclone DDS's C library could not be loaded: not installed, or not the library this binding needs. Thrown once, when
 * the first participant is made; a command line reports it as the package to install rather than a stack trace.
 */
public final class DdsLibraryUnavailableException extends IllegalStateException {

    /** The Debian package that provides the library this binding loads by default. */
    public static final String DEBIAN_PACKAGE = "libddsc0debian";

    public DdsLibraryUnavailableException(String message) {
        super(message);
    }
}
