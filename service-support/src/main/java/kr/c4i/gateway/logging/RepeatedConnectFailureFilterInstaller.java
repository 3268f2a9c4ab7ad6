package kr.c4i.gateway.logging;

import ch.qos.logback.classic.LoggerContext;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.context.ApplicationListener;

/**
 * Adds {@link RepeatedConnectFailureFilter} to Logback once Spring Boot has set logging up (it resets Logback's
 * context while doing so), whatever logging configuration the operator gave. Nothing happens under another logging
 * system.
 */
public final class RepeatedConnectFailureFilterInstaller implements ApplicationListener<ApplicationPreparedEvent> {

    @Override
    public void onApplicationEvent(ApplicationPreparedEvent event) {
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (factory instanceof LoggerContext context && context.getTurboFilterList().stream()
                .noneMatch(RepeatedConnectFailureFilter.class::isInstance)) {
            RepeatedConnectFailureFilter filter = new RepeatedConnectFailureFilter();
            filter.setContext(context);
            filter.start();
            context.addTurboFilter(filter);
        }
    }
}
