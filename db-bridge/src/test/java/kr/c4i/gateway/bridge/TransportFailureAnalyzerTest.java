package kr.c4i.gateway.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.diagnostics.FailureAnalysis;

import kr.c4i.gateway.core.transport.TransportKind;

class TransportFailureAnalyzerTest {

    private final TransportFailureAnalyzer analyzer = new TransportFailureAnalyzer();

    @Test
    void aMissingCycloneLibraryIsExplainedWithThePackageToInstall() {
        TransportStartException failure = new TransportStartException(TransportKind.DDS,
                new IllegalStateException("Unable to load libddsc.so.0debian"));

        FailureAnalysis analysis = analyzer.analyze(failure);

        assertThat(analysis.getDescription()).contains("gateway.node.transport=dds").contains("libddsc.so.0debian");
        assertThat(analysis.getAction()).contains("apt-get install libddsc0debian").contains("gateway.dds.library");
    }

    @Test
    void aJmsFailureNamesThePropertiesToCheck() {
        TransportStartException failure = new TransportStartException(TransportKind.JMS,
                new IllegalStateException("Address already in use"));

        FailureAnalysis analysis = analyzer.analyze(failure);

        assertThat(analysis.getDescription()).contains("gateway.node.transport=jms").contains("Address already in use");
        assertThat(analysis.getAction()).contains("gateway.jms.embedded.port");
    }
}
