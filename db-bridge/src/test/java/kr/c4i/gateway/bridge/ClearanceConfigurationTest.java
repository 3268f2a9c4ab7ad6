package kr.c4i.gateway.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import kr.c4i.gateway.bridge.config.NodeProperties;
import kr.c4i.gateway.bridge.config.RoutingProperties;

/** The bridge's clearances as configuration gives them: a level that is not one stops the start, named. */
class ClearanceConfigurationTest {

    @EnableConfigurationProperties({ NodeProperties.class, RoutingProperties.class })
    static class Properties {
    }

    @Test
    void anUnknownLevelStopsTheStartNamingThePropertyAndTheLevelsThereAre() {
        new ApplicationContextRunner().withUserConfiguration(Properties.class, BridgeConfiguration.class)
                .withPropertyValues("gateway.node.id=a", "gateway.routing.subscriptions.b=*",
                        "gateway.routing.clearances.b=SECERT", "gateway.routing.clearances.c=TOP SECRET")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("gateway.routing.clearances.b: 'SECERT' is not a classification level")
                        .hasMessageContaining("UNCLASSIFIED, RESTRICTED, CONFIDENTIAL, SECRET, TOP SECRET")
                        .hasMessageNotContaining("clearances.c"));
    }
}
