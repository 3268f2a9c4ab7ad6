package kr.c4i.gateway.wan.lan;

import static kr.c4i.gateway.wan.lan.Envelopes.CATALOGUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.wan.site.SiteMap;

/**
 * The routing table split by the site map. A DDS LAN side asks for a message's split three times (take it, receipt
 * it, deliver it); it is worked out once per type and origin, and kept only for what the configuration names.
 */
class LanRoutesTest {

    static final SiteId S1 = SiteId.of("s1");
    static final SiteId S2 = SiteId.of("s2");
    static final NodeId A = NodeId.of("a");
    static final NodeId B = NodeId.of("b");
    static final NodeId C = NodeId.of("c");
    static final NodeId D = NodeId.of("d");
    static final RoutingTable ROUTING = RoutingTable.of(Map.of(A, List.of("SITREP"), B, List.of("SITREP"), C,
            List.of("SITREP"), D, List.of("*")), CATALOGUE);
    static final LanRoutes ROUTES = new LanRoutes(SiteMap.of(S1, Map.of(S1, List.of(A, B), S2, List.of(C, D))),
            ROUTING);

    @Test
    void splitsTheDestinationsIntoThisSitesAndTheOthersNeverTheOrigin() {
        Envelope fromA = Envelopes.sitrep("m-1", A);
        assertThat(ROUTES.localDestinations(fromA)).containsExactly(B);
        assertThat(ROUTES.remoteDestinations(fromA)).containsExactly(C, D);
        Envelope fromC = Envelopes.sitrep("m-2", C);
        assertThat(ROUTES.localDestinations(fromC)).containsExactlyInAnyOrder(A, B);
        assertThat(ROUTES.remoteDestinations(fromC)).containsExactly(D);
    }

    @Test
    void theSplitOfATypeAndOriginIsWorkedOutOnceAndCannotBeChangedByACaller() {
        LanRoutes routes = new LanRoutes(SiteMap.of(S1, Map.of(S1, List.of(A, B), S2, List.of(C, D))), ROUTING);

        var remote = routes.remoteDestinations(Envelopes.sitrep("m-1", A));
        var local = routes.localDestinations(Envelopes.sitrep("m-1", A));

        assertThat(routes.remoteDestinations(Envelopes.sitrep("m-2", A))).isSameAs(remote);
        assertThat(routes.localDestinations(Envelopes.sitrep("m-3", A))).isSameAs(local);
        assertThat(routes.splitsKept()).isOne();
        assertThatThrownBy(() -> remote.add(A)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> local.add(A)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void anOriginTheSiteMapDoesNotPlaceOrATypeNobodyTakesIsAnsweredButNotKept() {
        LanRoutes routes = new LanRoutes(SiteMap.of(S1, Map.of(S1, List.of(A, B), S2, List.of(C, D))), ROUTING);
        Envelope stranger = Envelopes.sitrep("m-1", NodeId.of("stranger"));
        Envelope unknownType = new Envelope("m-2", A, "NO-SUCH-TYPE", stranger.precedence(), "UNCLASSIFIED",
                stranger.createdAt(), stranger.body());

        assertThat(routes.remoteDestinations(stranger)).containsExactly(C, D);
        assertThat(routes.localDestinations(stranger)).containsExactly(A, B);
        assertThat(routes.remoteDestinations(unknownType)).isEmpty();
        assertThat(routes.localDestinations(unknownType)).isEmpty();
        assertThat(routes.splitsKept()).isZero();
    }
}
