package kr.c4i.gateway.dds.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;

class NodeGrantTest {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    private static final NodeId GATEWAY = NodeId.of("gw-s1");
    private static final NodeId LOCAL = NodeId.of("a");
    private static final NodeId REMOTE_C = NodeId.of("c");
    private static final NodeId REMOTE_D = NodeId.of("d");

    private final RoutingTable routing = RoutingTable.of(Map.of(LOCAL, List.of("*"), REMOTE_C, List.of("SITREP"),
            REMOTE_D, List.of("SPOTREP")), CATALOGUE);

    @Test
    void aNodeIsGrantedItselfAsOriginEveryTopicToWriteAndItsSubscriptionsToRead() {
        NodeGrant c = NodeGrant.forNodes(List.of(REMOTE_C), this.routing, CATALOGUE).getFirst();

        assertThat(c.origins()).containsExactly(REMOTE_C);
        assertThat(c.publishTopics()).hasSize(CATALOGUE.size());
        assertThat(c.subscribeTopics()).containsExactly(topic("SITREP"));
    }

    @Test
    void aGatewayIsGrantedTheRemoteNodesAsOriginsAndReadsWhatTheySubscribeTo() {
        NodeGrant gateway = NodeGrant.forGateway(GATEWAY, List.of(REMOTE_C, REMOTE_D), this.routing, CATALOGUE);

        assertThat(gateway.node()).isEqualTo(GATEWAY);
        assertThat(gateway.origins()).containsExactlyInAnyOrder(GATEWAY, REMOTE_C, REMOTE_D);
        assertThat(gateway.publishTopics()).hasSize(CATALOGUE.size());
        // The local node's subscription to everything gives the gateway nothing more to read.
        assertThat(gateway.subscribeTopics()).containsExactlyInAnyOrder(topic("SITREP"), topic("SPOTREP"));
    }

    @Test
    void aGatewayGrantNeedsRemoteNodesOtherThanItself() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> NodeGrant.forGateway(GATEWAY, Set.of(), this.routing, CATALOGUE))
                .withMessageContaining("remote nodes");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> NodeGrant.forGateway(GATEWAY, Set.of(GATEWAY, REMOTE_C), this.routing, CATALOGUE))
                .withMessageContaining("gw-s1");
    }

    private static String topic(String type) {
        return CATALOGUE.require(type).topicName();
    }
}
