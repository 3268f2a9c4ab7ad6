package kr.c4i.gateway.wan.policy;

import java.time.InstantSource;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.wan.schedule.NanoClock;

/** The relay policy in force, from {@code gateway.wan.policy.*}, watched for changes while the gateway runs. */
@Configuration(proxyBeanMethods = false)
class PolicyConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    PolicyFile policyFile(PolicyProperties properties, ObjectProvider<KmtfCatalogue> catalogue,
            ObjectProvider<MeterRegistry> registry) {
        PolicyFile policy = new PolicyFile(properties.file(), catalogue.getIfAvailable(KmtfCatalogue::loadDefault),
                registry.getIfAvailable(SimpleMeterRegistry::new), NanoClock.SYSTEM, InstantSource.system());
        policy.start(properties.checkInterval());
        return policy;
    }
}
