package kr.c4i.gateway.wan.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.link.SiteId;

class SiteRoutesTest {

    private static final SiteId S1 = SiteId.of("s1");
    private static final SiteId S2 = SiteId.of("s2");
    private static final SiteId S3 = SiteId.of("s3");
    private static final SiteId S4 = SiteId.of("s4");

    @Test
    void aSiteBehindAPeerIsReachedThroughIt() {
        SiteRoutes routes = new SiteRoutes(S1, Set.of(S2), Map.of(S3, S2));
        List<SiteId> unroutable = new ArrayList<>();

        assertThat(routes.split(List.of(S2, S3, S4), List.of(S1), unroutable)).containsExactly(
                Map.entry(S2, new java.util.TreeSet<>(Set.of(S2, S3))));
        assertThat(unroutable).containsExactly(S4);
    }

    @Test
    void crossedSitesAreNeverANextHopNorADestination() {
        SiteRoutes routes = new SiteRoutes(S2, Set.of(S1, S3), Map.of());
        List<SiteId> unroutable = new ArrayList<>();

        // Came from s1 and is bound for s1 and s3 as well: only s3 is left, s1 was crossed.
        assertThat(routes.split(List.of(S1, S2, S3), List.of(S1), unroutable))
                .containsOnlyKeys(S3);
        assertThat(unroutable).isEmpty();
    }

    @Test
    void aRouteThroughACrossedPeerIsUnroutable() {
        SiteRoutes routes = new SiteRoutes(S2, Set.of(S1), Map.of(S3, S1));
        List<SiteId> unroutable = new ArrayList<>();

        assertThat(routes.split(List.of(S3), List.of(S1, S2), unroutable)).isEmpty();
        assertThat(unroutable).containsExactly(S3);
    }

    @Test
    void invalidRoutesAreNamedTogether() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new SiteRoutes(S1, Set.of(S2), Map.of(S3, S4, S2, S2, S1, S2)))
                .withMessageContaining("goes through s4, which is not a peer")
                .withMessageContaining("a route for s2, which the link reaches directly")
                .withMessageContaining("a route for s1, this gateway's own site");
    }
}
