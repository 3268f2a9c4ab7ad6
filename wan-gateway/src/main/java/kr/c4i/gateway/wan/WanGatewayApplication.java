package kr.c4i.gateway.wan;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The gateway of one site: its LAN on one side, the WAN link to the peer sites' gateways on the other. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class WanGatewayApplication {

    public static void main(String[] args) {
        SpringApplication.run(WanGatewayApplication.class, args);
    }
}
