package kr.c4i.gateway.management;

import org.springframework.core.io.ClassPathResource;

/**
 * The management settings every gateway service shares (listener on loopback, the endpoints exposed, probes,
 * health details only with the credential, the health status order), from {@code management-defaults.yaml}
 * beside this class, below every other property source. The port is each service's own.
 */
public final class ManagementDefaults extends ShippedDefaults {

    static final String PROPERTY_SOURCE = "gatewayManagementDefaults";

    public ManagementDefaults() {
        super(PROPERTY_SOURCE, new ClassPathResource("management-defaults.yaml", ManagementDefaults.class));
    }
}
