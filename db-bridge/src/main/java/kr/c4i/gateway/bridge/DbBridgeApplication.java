package kr.c4i.gateway.bridge;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The bridge beside one C4I server: its interface database on one side, a transport on the other. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class DbBridgeApplication {

    public static void main(String[] args) {
        SpringApplication.run(DbBridgeApplication.class, args);
    }
}
