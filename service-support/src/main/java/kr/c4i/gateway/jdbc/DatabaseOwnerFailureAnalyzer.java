package kr.c4i.gateway.jdbc;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** A process started on another node's or site's database says whose it is, not a lifecycle stack. */
final class DatabaseOwnerFailureAnalyzer extends AbstractFailureAnalyzer<DatabaseOwnedElsewhereException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, DatabaseOwnedElsewhereException cause) {
        return new FailureAnalysis(cause.getMessage(), "See docs/operator-guide.md, 'One database, one node or site'.",
                cause);
    }
}
