package kr.c4i.gateway.custody;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.HopTrace;

/** The last known position in one line, from the steps several databases logged. */
class CustodyTrailTest {

    private static final Instant T = Instant.parse("2026-11-22T12:03:04.250Z");

    private static CustodyStep step(int second, String event, String kind, String hop, List<String> peers,
            String link, @Nullable String detail) {
        return new CustodyStep(T.plusSeconds(second), event, kind, hop, peers, link, "FLASH", detail);
    }

    @Test
    void aMessageNoDatabaseLoggedIsNotSeenHereWithTheDatabasesAsked() {
        CustodyTrail trail = CustodyTrail.ofSteps("m-9", List.of("node a", "site s1"), List.of());

        assertThat(trail.seen()).isFalse();
        assertThat(trail.position()).isEqualTo("not seen here (asked node a, site s1)");
    }

    @Test
    void aMessageInAnInboxWhoseStepsWerePrunedIsThereWithTheHopsItCarried() {
        HopTrace carried = HopTrace.parse("node a sent +3ms; site s1 relayed +17ms; node c delivered +40ms", T);
        CustodyTrail trail = CustodyTrail.of("m-1", List.of(
                new CustodyLogReader.Answer("node c", List.of(), carried),
                new CustodyLogReader.Answer("site s1", List.of(), null)));

        assertThat(trail.seen()).isTrue();
        assertThat(trail.asked()).containsExactly("node c", "site s1");
        assertThat(trail.carried()).containsExactly(new CustodyTrail.Carried("node c", carried));
        assertThat(trail.position()).isEqualTo("in node c's inbox since " + T.plusMillis(40)
                + "; no custody steps logged of it (pruned, or the log was off)");
    }

    @Test
    void stepsOfSeveralDatabasesAreOrderedByTimeAndTheLastIsThePosition() {
        CustodyStep stored = step(1, "stored", "site", "s1", List.of("s2"), "norm", "from this site's LAN");
        CustodyStep sent = step(0, "sent", "node", "a", List.of("c"), "jms", null);

        CustodyTrail trail = CustodyTrail.ofSteps("m-1", List.of("node a", "site s1"), List.of(stored, sent));

        assertThat(trail.steps()).containsExactly(sent, stored);
        assertThat(trail.position())
                .isEqualTo("stored at gateway s1 since 2026-11-22T12:03:05Z, not yet acknowledged by s2; "
                        + "not yet seen at c");
    }

    /**
     * s2's gateway forwarded its steps to s1's, so asked both, they answer the same steps; and s2 delivered onto its
     * LAN before s1 logged its acknowledgement: the position is s2's delivery, not s1's custody passing.
     */
    @Test
    void stepsForwardedToTheOriginsSiteAreOneStepAndTheNextHopsStepsSayMoreThanTheAcknowledgement() {
        CustodyStep storedAtS1 = step(0, "stored", "site", "s1", List.of("s2"), "norm", "from this site's LAN");
        CustodyStep storedAtS2 = step(1, "stored", "site", "s2", List.of("@lan"), "lan", "from site s1");
        CustodyStep deliveredAtS2 = step(2, "delivered", "site", "s2", List.of("@lan"), "lan", null);
        CustodyStep acknowledged = step(3, "acknowledged", "site", "s1", List.of("s2"), "norm", null);

        CustodyTrail trail = CustodyTrail.of("m-1", List.of(
                new CustodyLogReader.Answer("site s1", List.of(storedAtS1, storedAtS2, deliveredAtS2, acknowledged),
                        null),
                new CustodyLogReader.Answer("site s2", List.of(storedAtS2, deliveredAtS2), null)));

        assertThat(trail.steps()).containsExactly(storedAtS1, storedAtS2, deliveredAtS2, acknowledged);
        assertThat(trail.position()).isEqualTo("delivered onto site s2's LAN at 2026-11-22T12:03:06Z");
        assertThat(CustodyTrail.ofSteps("m-1", List.of("site s1"), List.of(storedAtS1, acknowledged)).position())
                .isEqualTo("custody passed from gateway s1 to s2's gateway at 2026-11-22T12:03:07Z");
    }

    @Test
    void aCopyStoredForTheLanAndAPeerInOneStatementWaitsForBoth() {
        CustodyTrail trail = CustodyTrail.ofSteps("m-1", List.of("site s2"), List.of(
                step(0, "stored", "site", "s2", List.of("@lan"), "lan", "from site s1"),
                step(0, "stored", "site", "s2", List.of("s3"), "norm", "from site s1")));

        assertThat(trail.position()).isEqualTo("stored at gateway s2 since 2026-11-22T12:03:04Z, not yet delivered "
                + "onto its LAN or acknowledged by s3");
    }

    @Test
    void eachStepSaysWhereTheMessageIs() {
        assertThat(position(step(0, "sent", "node", "a", List.of("b", "c"), "jms", null)))
                .isEqualTo("in node a's broker for b, c since 2026-11-22T12:03:04Z (store-and-forward)");
        assertThat(position(step(0, "sent", "node", "a", List.of("b"), "dds", null)))
                .isEqualTo("sent by node a over dds to b at 2026-11-22T12:03:04Z, not yet receipted");
        assertThat(position(step(0, "receipted", "node", "a", List.of("b"), "dds", null)))
                .isEqualTo("in b's inbox: receipted to node a at 2026-11-22T12:03:04Z");
        assertThat(position(step(0, "delivered", "node", "b", List.of("a"), "jms", null)))
                .isEqualTo("delivered into b's inbox at 2026-11-22T12:03:04Z");
        assertThat(position(step(0, "delivered", "site", "s2", List.of("@lan"), "lan", null)))
                .isEqualTo("delivered onto site s2's LAN at 2026-11-22T12:03:04Z");
        assertThat(position(step(0, "acknowledged", "site", "s1", List.of("s2"), "norm", null)))
                .isEqualTo("custody passed from gateway s1 to s2's gateway at 2026-11-22T12:03:04Z");
        assertThat(position(step(0, "refused", "node", "a", List.of("b"), "jms", "clearance-exceeded: b is cleared "
                + "CONFIDENTIAL"))).isEqualTo("refused at node a for b at 2026-11-22T12:03:04Z: clearance-exceeded: b "
                        + "is cleared CONFIDENTIAL");
        assertThat(position(step(0, "expired", "site", "s1", List.of("s2"), "norm", null)))
                .isEqualTo("expired at gateway s1 at 2026-11-22T12:03:04Z (was for s2)");
        assertThat(position(step(0, "handed-over", "site", "s1", List.of(), "norm", null)))
                .as("an event a newer service writes").isEqualTo("handed-over at site s1 at 2026-11-22T12:03:04Z");
    }

    @Test
    void aDestinationThatReceiptedOrLoggedAStepIsAccountedFor() {
        CustodyTrail trail = CustodyTrail.ofSteps("m-1", List.of("node a", "node b"), List.of(
                step(0, "sent", "node", "a", List.of("b", "c", "d"), "dds", null),
                step(1, "delivered", "node", "b", List.of("a"), "dds", null),
                step(2, "receipted", "node", "a", List.of("c"), "dds", null)));

        assertThat(trail.position()).isEqualTo("in c's inbox: receipted to node a at 2026-11-22T12:03:06Z; "
                + "not yet seen at d");
    }

    @Test
    void onceEveryDestinationHasItTheLastOfTheirStepsIsThePositionThoughGatewaysLogLater() {
        // As a drain after a WAN outage may log it: c's inbox took the message before s2's gateway deleted its copy
        // and before s1's heard s2's receipt.
        List<CustodyStep> steps = List.of(
                step(0, "sent", "node", "a", List.of("c"), "jms", null),
                step(1, "stored", "site", "s1", List.of("s2"), "jms", "from this site's LAN"),
                step(2, "stored", "site", "s2", List.of("@lan"), "lan", "from site s1"),
                step(3, "delivered", "node", "c", List.of("a"), "jms", null),
                step(4, "delivered", "site", "s2", List.of("@lan"), "lan", null),
                step(5, "acknowledged", "site", "s1", List.of("s2"), "jms", null));

        CustodyTrail trail = CustodyTrail.ofSteps("m-1", List.of("node a", "node c", "site s1", "site s2"), steps);

        assertThat(trail.position()).isEqualTo("delivered into c's inbox at 2026-11-22T12:03:07Z");
        CustodyTrail withoutC = CustodyTrail.ofSteps("m-1", List.of("node a", "site s1", "site s2"),
                steps.stream().filter(step -> !"c".equals(step.hop())).toList());
        // s2's own steps say more than s1's acknowledgement, which its clock puts last.
        assertThat(withoutC.position()).as("c not asked").isEqualTo("delivered onto site s2's LAN "
                + "at 2026-11-22T12:03:08Z; not yet seen at c");
    }

    @Test
    void aCopyStillStoredForAnotherRouteIsNamedAfterTheLastStep() {
        CustodyTrail trail = CustodyTrail.ofSteps("m-1", List.of("site s1"), List.of(
                step(0, "stored", "site", "s1", List.of("s2", "s3"), "norm", "from this site's LAN"),
                step(1, "acknowledged", "site", "s1", List.of("s2"), "norm", null)));

        assertThat(trail.position()).isEqualTo("custody passed from gateway s1 to s2's gateway at "
                + "2026-11-22T12:03:05Z; still stored at gateway s1 for s3");

        CustodyTrail both = CustodyTrail.ofSteps("m-1", List.of("site s1"), List.of(
                step(0, "stored", "site", "s1", List.of("s2", "s3"), "norm", "from this site's LAN"),
                step(1, "acknowledged", "site", "s1", List.of("s2"), "norm", null),
                step(2, "acknowledged", "site", "s1", List.of("s3"), "norm", null)));
        assertThat(both.position()).as("every copy resolved").isEqualTo("custody passed from gateway s1 to s3's "
                + "gateway at 2026-11-22T12:03:06Z");
    }

    private static String position(CustodyStep step) {
        return CustodyTrail.ofSteps("m-1", List.of("somewhere"), List.of(step)).position();
    }
}
