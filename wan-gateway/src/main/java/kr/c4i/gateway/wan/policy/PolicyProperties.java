package kr.c4i.gateway.wan.policy;

import java.nio.file.Path;
import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where the relay policy comes from.
 *
 * @param file the policy file (YAML, see docs/wan-gateway.md "Policy"); unset: every type is relayed, nothing is
 *        limited, superseded or expired
 * @param checkInterval how often the file is checked for changes; a change is in force at most this long after it
 *        was saved
 */
@ConfigurationProperties("gateway.wan.policy")
public record PolicyProperties(@Nullable Path file, @DefaultValue("5s") Duration checkInterval) {

    public PolicyProperties {
        if (checkInterval.isNegative() || checkInterval.isZero()) {
            throw new IllegalArgumentException(
                    "gateway.wan.policy.check-interval must be positive, was " + checkInterval);
        }
    }
}
