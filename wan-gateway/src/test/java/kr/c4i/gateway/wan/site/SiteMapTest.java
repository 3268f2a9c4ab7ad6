package kr.c4i.gateway.wan.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;

class SiteMapTest {

    static final SiteId ONE = SiteId.of("site1");
    static final SiteId TWO = SiteId.of("site2");
    static final SiteId THREE = SiteId.of("site3");
    static final NodeId A = NodeId.of("a");
    static final NodeId B = NodeId.of("b");
    static final NodeId C = NodeId.of("c");
    static final NodeId D = NodeId.of("d");

    @Test
    void placesEveryNodeAtItsSite() {
        SiteMap map = SiteMap.of(ONE, Map.of(ONE, List.of(A, B), TWO, List.of(C), THREE, List.of(D)));
        assertThat(map.thisSite()).isEqualTo(ONE);
        assertThat(map.sites()).containsExactly(ONE, TWO, THREE);
        assertThat(map.peerSites()).containsExactly(TWO, THREE);
        assertThat(map.localNodes()).containsExactly(A, B);
        assertThat(map.remoteNodes()).containsExactly(C, D);
        assertThat(map.siteOf(C)).contains(TWO);
        assertThat(map.siteOf(NodeId.of("zulu"))).isEmpty();
        assertThat(map.isLocal(A)).isTrue();
        assertThat(map.isRemote(A)).isFalse();
        assertThat(map.isRemote(D)).isTrue();
        assertThat(map.isLocal(NodeId.of("zulu"))).isFalse();
        assertThat(map.isRemote(NodeId.of("zulu"))).isFalse();
        assertThat(map.sitesOf(List.of(B, C, D, NodeId.of("zulu")))).containsExactly(ONE, TWO, THREE);
        assertThat(map.remoteOf(List.of(A, C))).containsExactly(C);
        assertThat(map.localOf(List.of(A, C))).containsExactly(A);
    }

    @Test
    void aSiteMayHaveNoNodes() {
        SiteMap map = SiteMap.of(THREE, Map.of(ONE, List.of(A), THREE, List.of()));
        assertThat(map.localNodes()).isEmpty();
        assertThat(map.remoteNodes()).containsExactly(A);
    }

    @Test
    void namesEveryProblemAtOnce() {
        RoutingTable routing = RoutingTable.of(Map.of(A, List.of("SITREP"), NodeId.of("echo"), List.of("SITREP")),
                KmtfCatalogue.loadDefault());
        assertThatThrownBy(() -> SiteMap.of(THREE, Map.of(ONE, List.of(A, B), TWO, List.of(B, C)), routing))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("this site site3 is not one of the sites [site1, site2]")
                .hasMessageContaining("node b is at more than one site: [site1, site2]")
                .hasMessageContaining("node echo of the routing table is at no site");
    }

    @Test
    void acceptsARoutingTableWhoseNodesItPlaces() {
        RoutingTable routing = RoutingTable.of(Map.of(A, List.of("SITREP"), C, List.of("*")),
                KmtfCatalogue.loadDefault());
        assertThat(SiteMap.of(TWO, Map.of(ONE, List.of(A), TWO, List.of(C)), routing).localNodes()).containsExactly(C);
    }
}
