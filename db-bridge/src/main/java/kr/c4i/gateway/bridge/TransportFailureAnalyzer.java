package kr.c4i.gateway.bridge;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import kr.c4i.gateway.core.transport.TransportKind;

/**
 * Turns a transport that would not start into a message an operator can act on: for DDS, the
 * missing Cyclone library; for JMS, the broker, its port or its credentials.
 */
final class TransportFailureAnalyzer extends AbstractFailureAnalyzer<TransportStartException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, TransportStartException cause) {
        String detail = describe(cause.getCause());
        if (cause.transport() == TransportKind.DDS) {
            boolean library = detail.contains("libddsc") || detail.contains("library");
            return new FailureAnalysis("The DDS transport (gateway.node.transport=dds) could not start: " + detail,
                    library ? "Install Cyclone DDS 0.10 (apt-get install libddsc0debian) or point gateway.dds.library "
                            + "at libddsc, and start the JVM with --enable-native-access=ALL-UNNAMED."
                            : "Check gateway.dds.* (domain id, network interface, peers) or CYCLONEDDS_URI.",
                    cause);
        }
        return new FailureAnalysis("The JMS transport (gateway.node.transport=jms) could not start: " + detail,
                "Check gateway.jms.* : an embedded broker needs a free gateway.jms.embedded.port and a writable "
                        + "gateway.jms.embedded.data-directory; an external one (gateway.jms.url) must be reachable "
                        + "with gateway.jms.user and gateway.jms.password. Start the JVM with "
                        + "--sun-misc-unsafe-memory-access=allow on Java 25.",
                cause);
    }

    private static String describe(Throwable failure) {
        StringBuilder text = new StringBuilder(String.valueOf(failure.getMessage()));
        for (Throwable cause = failure.getCause(); cause != null && cause != failure; cause = cause.getCause()) {
            text.append(": ").append(cause.getMessage());
        }
        return text.toString();
    }
}
