package kr.c4i.gateway.management;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** A node without a management password says which property to set, not a bean-creation stack. */
final class ManagementFailureAnalyzer extends AbstractFailureAnalyzer<ManagementPasswordMissingException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ManagementPasswordMissingException cause) {
        return new FailureAnalysis(cause.getMessage() + ". The management endpoints (health details, prometheus, "
                + "metrics, info) need a credential, and the node does not make one up.",
                "Set spring.security.user.password (environment: SPRING_SECURITY_USER_PASSWORD), plain or encoded "
                        + "as {bcrypt}..., and optionally spring.security.user.name (default 'user'). Prometheus "
                        + "then scrapes with basic_auth; see docs/configuration.md, 'Listening addresses and "
                        + "credentials'.",
                cause);
    }
}
