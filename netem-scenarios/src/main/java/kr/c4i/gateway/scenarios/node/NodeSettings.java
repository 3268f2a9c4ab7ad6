package kr.c4i.gateway.scenarios.node;

import java.nio.file.Path;
import java.util.Map;

/**
 * How the harness starts nodes, the same for every node of a run.
 *
 * @param java the Java 25 launcher
 * @param jar gateway-tools' executable jar, whose {@code node} runs the service users deploy
 * @param heap the node JVM's -Xmx
 * @param jmsRetryInterval {@code gateway.jms.bridge-max-retry-interval}: how soon a JMS node finds a peer that is back
 * @param ddsDomain DDS domain id of every node
 * @param multicastAddress DDS multicast group
 * @param extraProperties more bridge properties for every node (tuning), applied last
 * @param gatewayProperties more properties for every WAN gateway of the wan experiment (tuning), applied last
 */
public record NodeSettings(Path java, Path jar, String heap, String jmsRetryInterval, int ddsDomain,
        String multicastAddress, Map<String, String> extraProperties, Map<String, String> gatewayProperties) {

    public static final String JMS_USER = "scenarios";
    public static final String JMS_PASSWORD = "scenarios-c4g";
    public static final int JMS_PORT = 61616;
    public static final int HTTP_PORT = 8080;

    public NodeSettings {
        extraProperties = Map.copyOf(extraProperties);
        gatewayProperties = Map.copyOf(gatewayProperties);
    }
}
