package kr.c4i.gateway.wan.policy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.kmtf.text.KmtfMessage;
import kr.c4i.gateway.kmtf.text.KmtfSet;
import kr.c4i.gateway.wan.schedule.Waiting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class RelayPolicyTest {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

    private final AtomicLong nanos = new AtomicLong();
    private int sequence;

    @Test
    void withoutRulesEverythingIsRelayed() {
        RelayPolicy policy = policy("");
        assertThat(CATALOGUE.ids()).allMatch(policy::allows);
        assertThat(policy.decide(envelope("SITREP"), CATALOGUE.require("SITREP"))).isEqualTo(PolicyDecision.RELAY);
    }

    @Test
    void theFirstRuleThatMatchesATypeDecides() {
        RelayPolicy policy = policy("""
                rules:
                  - allow: [SITREP, "*TRACK"]
                  - deny: category:operations
                  - deny: category:air
                """);

        assertThat(policy.allows("SITREP")).isTrue();
        assertThat(policy.allows("FRDTRACK")).as("operations, but a *TRACK").isTrue();
        assertThat(policy.allows("AIRTRACK")).isTrue();
        assertThat(policy.allows("OPORD")).isFalse();
        assertThat(policy.allows("ATO")).isFalse();
        assertThat(policy.allows("INTREP")).as("no rule: the default").isTrue();
        assertThat(decide(policy, "OPORD")).isEqualTo(PolicyDecision.drop(DropReason.DENIED));
    }

    @Test
    void theDefaultCanBeDeny() {
        RelayPolicy policy = policy("""
                default: deny
                rules:
                  - allow: category:operations
                """);

        assertThat(policy.allows("SITREP")).isTrue();
        assertThat(policy.allows("INTREP")).isFalse();
    }

    @Test
    void aRateLimitDropsWhatGoesOverItAndRecoversAtItsRate() {
        RelayPolicy policy = policy("""
                rate-limits:
                  - types: BLUEPOS
                    rate: 2/s
                """);

        assertThat(decide(policy, "BLUEPOS")).isInstanceOf(PolicyDecision.Relay.class);
        assertThat(decide(policy, "BLUEPOS")).isInstanceOf(PolicyDecision.Relay.class);
        assertThat(decide(policy, "BLUEPOS")).isEqualTo(PolicyDecision.drop(DropReason.RATE_LIMITED));
        this.nanos.addAndGet(Duration.ofMillis(499).toNanos());
        assertThat(decide(policy, "BLUEPOS")).isEqualTo(PolicyDecision.drop(DropReason.RATE_LIMITED));
        this.nanos.addAndGet(Duration.ofMillis(1).toNanos());
        assertThat(decide(policy, "BLUEPOS")).isInstanceOf(PolicyDecision.Relay.class);
        assertThat(decide(policy, "OWNPOS")).as("another type, unlimited").isInstanceOf(PolicyDecision.Relay.class);
    }

    @Test
    void aCategoryRateLimitIsSharedByItsTypesAndLeavesReliableOnesAlone() {
        RelayPolicy policy = policy("""
                rate-limits:
                  - types: category:operations
                    rate: 1/5s
                    burst: 1
                """);

        assertThat(decide(policy, "BLUEPOS")).isInstanceOf(PolicyDecision.Relay.class);
        assertThat(decide(policy, "OWNPOS")).isEqualTo(PolicyDecision.drop(DropReason.RATE_LIMITED));
        for (int i = 0; i < 10; i++) {
            assertThat(decide(policy, "SITREP")).as("RELIABLE").isInstanceOf(PolicyDecision.Relay.class);
        }
    }

    @Test
    void reliableTypesAreRateLimitedOnlyWhenTheOperatorSaysSo() {
        assertThatExceptionOfType(PolicyException.class).isThrownBy(() -> policy("""
                rate-limits:
                  - types: SITREP
                    rate: 1/s
                """)).withMessageContaining("line 2").withMessageContaining("'SITREP' matches only RELIABLE types");

        RelayPolicy policy = policy("""
                rate-limits:
                  - types: SITREP
                    rate: 1/s
                    drop-reliable: true
                """);
        decide(policy, "SITREP");
        assertThat(decide(policy, "SITREP")).isEqualTo(PolicyDecision.drop(DropReason.RATE_LIMITED));
    }

    @Test
    void aSupersedeKeyNamesTheTypeAndOriginAndOptionallyAField() {
        RelayPolicy policy = policy("""
                supersede:
                  - types: [BLUEPOS, OWNPOS]
                  - types: BFT
                    field: UNITID/1
                """);

        assertThat(decide(policy, "BLUEPOS")).isEqualTo(PolicyDecision.relay("BLUEPOS|node-a"));
        assertThat(policy.decide(envelope("BFT", KmtfSet.of("UNITID", "2BN", "X")), CATALOGUE.require("BFT")))
            .isEqualTo(PolicyDecision.relay("BFT|node-a|2BN"));
        assertThat(policy.decide(envelope("BFT"), CATALOGUE.require("BFT")))
            .as("no UNITID set: never superseded").isEqualTo(PolicyDecision.RELAY);
        assertThat(decide(policy, "SITREP")).isEqualTo(PolicyDecision.RELAY);
    }

    @Test
    void expiryByPrecedenceSparesReliableTypesUnlessTold() {
        RelayPolicy policy = policy("""
                expiry:
                  - types: UNITLOC
                    max-age: 10m
                  - precedence: routine
                    max-age: 1h
                  - precedence: [priority, immediate]
                    max-age: 1h
                    drop-reliable: true
                """);

        assertThat(policy.expired(waiting("NETSTAT", Precedence.ROUTINE, Duration.ofMinutes(61)), NOW)).isTrue();
        assertThat(policy.expired(waiting("NETSTAT", Precedence.ROUTINE, Duration.ofMinutes(59)), NOW)).isFalse();
        assertThat(policy.expired(waiting("OPLAN", Precedence.ROUTINE, Duration.ofDays(2)), NOW))
            .as("RELIABLE, no drop-reliable").isFalse();
        assertThat(policy.expired(waiting("SITREP", Precedence.PRIORITY, Duration.ofMinutes(61)), NOW)).isTrue();
        assertThat(policy.expired(waiting("UNITLOC", Precedence.ROUTINE, Duration.ofMinutes(11)), NOW))
            .as("the type's own max-age").isTrue();
        assertThat(policy.expired(waiting("EXORD", Precedence.FLASH, Duration.ofDays(2)), NOW)).isFalse();
        assertThat(policy.maxAge("UNITLOC", Precedence.ROUTINE)).contains(Duration.ofMinutes(10));
    }

    @Test
    void aMessageAlreadyTooOldWhenItArrivesIsDroppedAsExpired() {
        RelayPolicy policy = policy("""
                expiry:
                  - types: "*TRACK"
                    max-age: 30s
                """);
        Envelope old = new Envelope("m-old", NodeId.of("node-a"), "AIRTRACK", Precedence.IMMEDIATE, "UNCLASSIFIED",
                NOW.minusSeconds(31), body("AIRTRACK"));

        assertThat(policy.decide(old, CATALOGUE.require("AIRTRACK"))).isEqualTo(
                PolicyDecision.drop(DropReason.EXPIRED));
    }

    @Test
    void everyUnknownTypeCategoryOrKeyIsReportedWithItsLine() {
        assertThatExceptionOfType(PolicyException.class).isThrownBy(() -> policy("""
                rules:
                  - deny: TRK*
                  - allow: category:navy
                  - deny: SITRPE
                expire:
                  - precedence: routine
                """)).satisfies((ex) -> assertThat(ex.problems()).containsExactly(
                        "line 2: pattern 'TRK*' matches no type of the catalogue",
                        "line 3: pattern 'navy' is not a category; allowed values are operations, intelligence, fires,"
                                + " air, maritime, logistics, cbrn, personnel, communications, engineer, medical, "
                                + "metoc, administration",
                        "line 4: pattern 'SITRPE' is not a type of the catalogue (" + CATALOGUE.size()
                                + " types; ids are case-sensitive)",
                        "line 5: unknown key 'expire'; expected one of default, expiry, rate-limits, rules, "
                                + "supersede"));
    }

    @Test
    void brokenYamlIsReportedWithItsLine() {
        assertThatExceptionOfType(PolicyException.class).isThrownBy(() -> policy("""
                rules:
                  - deny: [SITREP
                """)).withMessageContaining("line 3").withMessageContaining("not valid YAML");
    }

    @Test
    void badValuesAreReportedWithTheirLines() {
        assertThatExceptionOfType(PolicyException.class).isThrownBy(() -> policy("""
                default: maybe
                rate-limits:
                  - types: BLUEPOS
                    rate: fast
                expiry:
                  - precedence: urgent
                    max-age: soon
                """)).satisfies((ex) -> assertThat(ex.problems()).containsExactly(
                        "line 1: default must be allow or deny, was 'maybe'",
                        "line 4: rate 'fast' is not <messages>/<period> with both positive, such as 10/s, 600/m or "
                                + "1/5s",
                        "line 7: max-age 'soon' is not a positive duration, such as 90s, 10m or 1h"));
    }

    @Test
    void dropReasonsAreMetricTags() {
        assertThat(List.of(DropReason.values())).extracting(DropReason::label).containsExactly("denied",
                "rate-limited", "expired", "superseded", "clearance");
    }

    private RelayPolicy policy(String yaml) {
        return RelayPolicy.read(yaml, "test.yaml", CATALOGUE, this.nanos::get, InstantSource.fixed(NOW));
    }

    private PolicyDecision decide(RelayPolicy policy, String type) {
        return policy.decide(envelope(type), CATALOGUE.require(type));
    }

    private Envelope envelope(String type, KmtfSet... sets) {
        return new Envelope("m-" + (++this.sequence), NodeId.of("node-a"), type,
                CATALOGUE.require(type).defaultPrecedence(), "UNCLASSIFIED", NOW.minusSeconds(1), body(type, sets));
    }

    private static byte[] body(String type, KmtfSet... sets) {
        List<KmtfSet> all = new java.util.ArrayList<>();
        all.add(KmtfSet.of("MSGID", type, "TEST"));
        all.addAll(List.of(sets));
        return new KmtfMessage(Optional.empty(), all).render().getBytes(StandardCharsets.UTF_8);
    }

    private static Waiting waiting(String type, Precedence precedence, Duration age) {
        Instant created = NOW.minus(age);
        return new Waiting(1, "M-1", precedence, type, 100, created, created);
    }
}
