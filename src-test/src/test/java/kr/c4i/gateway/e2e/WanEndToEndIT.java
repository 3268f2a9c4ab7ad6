package kr.c4i.gateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import java.util.regex.Pattern;

import com.jayway.jsonpath.JsonPath;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.e2e.WanCluster.Variant;
import kr.c4i.gateway.interfacedb.InboxRow;
import kr.c4i.gateway.interfacedb.RawOutboxRow;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.Reliability;
import kr.c4i.gateway.tools.node.GatewayLaunch;

/**
 * The WAN gateway end to end, as deployed: node bridges and site gateways as processes from their executable jars,
 * each with its own PostgreSQL, sites joined only through their gateways. Messages are compared by id, as sets,
 * between the senders' outboxes and the receivers' inboxes.
 */
class WanEndToEndIT {

    private static final String TYPE = "SITREP";
    private static final Duration DELIVERY = Duration.ofSeconds(120);
    // Messages each node writes at once before a gateway is killed: seconds of the 64 kbit/s link.
    private static final int BURST = 200;
    // Each writer its own thread: the common pool may have a single worker, and a load runs until stopped.
    private static final Executor WRITERS = task -> Thread.ofVirtual().name("writer").start(task);
    // A time in a custody position: to the second, in UTC.
    private static final String AT = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z";

    // Kept when a test fails: the processes' logs are in it.
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @BeforeAll
    static void theTypeIsReliable() {
        assertThat(KmtfCatalogue.loadDefault().require(TYPE).reliability()).isEqualTo(Reliability.RELIABLE);
    }

    @Test
    void jmsLanAndLinkCarryEveryMessageOnceBothWaysAndNothingLoopsBack() throws Exception {
        bothWays(Variant.JMS);
    }

    @Test
    void ddsLanAndLinkCarryEveryMessageOnceBothWaysAndNothingLoopsBack() throws Exception {
        bothWays(Variant.DDS);
    }

    @Test
    void ddsLansAndTheNormLinkCarryEveryMessageOnceBothWaysAndNothingLoopsBack() throws Exception {
        bothWays(Variant.NORM);
    }

    /**
     * Site s1 has nodes a and b, site s2 node c; a and c write at once, everyone subscribes to everything. b gets a's
     * messages on its own LAN and c's through both gateways; a loop would bring a message back to its origin's site a
     * second time (b's duplicates) or to its origin itself.
     */
    private void bothWays(Variant variant) throws Exception {
        try (WanCluster wan = new WanCluster(dir, variant, sites("s1", List.of("a", "b"), "s2", List.of("c")),
                Map.of())) {
            for (String site : List.of("s1", "s2")) {
                assertRunsTheExample(wan.gatewayLaunch(site),
                        Path.of("../docs/examples/wan-gateway-" + site + "-" + variant.link() + ".properties"));
            }
            wan.startAll();
            CompletableFuture<List<String>> fromA = produce(wan, "a", 300, i -> null);
            CompletableFuture<List<String>> fromC = produce(wan, "c", 300, i -> null);
            List<String> sentByA = fromA.get(60, TimeUnit.SECONDS);
            List<String> sentByC = fromC.get(60, TimeUnit.SECONDS);

            await().alias("every message in every inbox").atMost(DELIVERY).pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> {
                        assertThat(wan.inboxIds("c")).as("c's inbox").hasSameElementsAs(sentByA);
                        assertThat(wan.inboxIds("a")).as("a's inbox").hasSameElementsAs(sentByC);
                        assertThat(wan.inboxIds("b")).as("b's inbox").hasSameElementsAs(union(sentByA, sentByC));
                    });
            assertThat(wan.inboxIds("c")).hasSize(300);
            assertThat(wan.inboxIds("b")).hasSize(600);
            assertThat(wan.client("c").strings("SELECT DISTINCT origin_node FROM inbox")).containsExactly("a");
            assertThat(wan.client("a").strings("SELECT DISTINCT origin_node FROM inbox")).containsExactly("c");
            if (variant == Variant.JMS) {
                // Over JMS without faults every copy is sent once; a relayed copy coming back would count here.
                for (String node : wan.nodeIds()) {
                    assertThat(WanCluster.metric(wan.node(node), "gateway_inbox_duplicates_total{"))
                            .as("duplicates at %s", node).isZero();
                }
            }
            else {
                // Secured LANs: each gateway counts what DDS Security refused on its LAN, here nothing.
                for (String site : List.of("s1", "s2")) {
                    String metrics = wan.gateway(site).get("/actuator/prometheus").body();
                    for (String reason : List.of("forged-origin", "unauthenticated", "authentication-failed")) {
                        assertThat(metrics).as("%s at the gateway of %s", reason, site).containsPattern(
                                "gateway_dds_security_refused_total\\{[^}]*reason=\"" + reason + "\"[^}]*\\} 0\\.0");
                    }
                }
            }
            theCreationContextReachesTheFarInbox(wan);
            // Nothing is left in custody anywhere.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                for (String site : List.of("s1", "s2")) {
                    assertThat(WanCluster.metric(wan.gateway(site), "gateway_wan_store_copies{"))
                            .as("copies in the store of %s", site).isZero();
                }
            });
        }
    }

    /**
     * The trace context the application wrote with its message crosses both LANs, both stores and the WAN link into
     * the far node's inbox unchanged (tracing off, as shipped: it is carried whether or not spans are made).
     */
    private static void theCreationContextReachesTheFarInbox(WanCluster wan) throws Exception {
        String traceParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        try (Connection c = wan.client("a").dataSource().getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO outbox (message_id, kmtf_type, body, "
                        + "traceparent) VALUES ('a-traced', ?, ?, ?)")) {
            ps.setString(1, TYPE);
            ps.setBytes(2, EndToEndContract.message(TYPE, 1).getBytes(StandardCharsets.UTF_8));
            ps.setString(3, traceParent);
            ps.executeUpdate();
        }
        await().alias("the traced message in c's inbox").atMost(DELIVERY).pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> assertThat(wan.client("c").strings(
                        "SELECT traceparent FROM inbox WHERE message_id = 'a-traced'")).containsExactly(traceParent));
    }

    /**
     * Three sites in a ring, each gateway peered with the two others; every node writes, everyone subscribes to
     * everything: each message reaches each other node once.
     */
    @Test
    void threeGatewaysInARingDeliverEveryMessageOnceToEverySubscriber() throws Exception {
        try (WanCluster wan = new WanCluster(dir, Variant.JMS,
                sites("s1", List.of("a"), "s2", List.of("c"), "s3", List.of("d")), Map.of())) {
            wan.startAll();
            Map<String, CompletableFuture<List<String>>> producing = new LinkedHashMap<>();
            for (String node : wan.nodeIds()) {
                producing.put(node, produce(wan, node, 150, i -> null));
            }
            Map<String, List<String>> sent = new LinkedHashMap<>();
            for (Map.Entry<String, CompletableFuture<List<String>>> p : producing.entrySet()) {
                sent.put(p.getKey(), p.getValue().get(60, TimeUnit.SECONDS));
            }
            await().alias("every message at every other node").atMost(DELIVERY).pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> {
                        for (String node : wan.nodeIds()) {
                            List<String> expected = new ArrayList<>();
                            sent.forEach((origin, ids) -> {
                                if (!origin.equals(node)) {
                                    expected.addAll(ids);
                                }
                            });
                            assertThat(wan.inboxIds(node)).as("%s's inbox", node).hasSameElementsAs(expected);
                        }
                    });
            for (String node : wan.nodeIds()) {
                assertThat(wan.inboxIds(node)).hasSize(300);
                assertThat(WanCluster.metric(wan.node(node), "gateway_inbox_duplicates_total{"))
                        .as("duplicates at %s", node).isZero();
            }
        }
    }

    /**
     * Under load, the WAN is cut for 60 s; meanwhile both gateways are killed with SIGKILL and started again. After
     * the WAN is back every message arrives exactly once, and what piled up during the outage drains FLASH and
     * IMMEDIATE before ROUTINE. {@code gateway trace} of a FLASH written once both gateways are back finds it held at
     * s1's gateway, the cut hop, for as long as the WAN is cut, then delivered into c's inbox; and s1's gateway,
     * asked alone, learns from s2's forwarded steps that s2 delivered it onto its LAN, and node a has a delivery
     * report of each FLASH it wrote.
     */
    @Test
    void aWanOutageWithBothGatewaysKilledLosesNothingAndDrainsByPrecedence() throws Exception {
        // Strict precedence (no floor share for ROUTINE), so the drain order is the scheduler's.
        try (WanCluster wan = new WanCluster(dir, Variant.JMS, sites("s1", List.of("a"), "s2", List.of("c")),
                Map.of("gateway.wan.schedule.floor", "0"))) {
            wan.startAll();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<String> phase = new AtomicReference<>("before");
            CompletableFuture<List<String>> loadA = load(wan, "a", stop, phase);
            CompletableFuture<List<String>> loadC = load(wan, "c", stop, phase);
            await().atMost(DELIVERY).until(() -> wan.inboxIds("c").size() > 50 && wan.inboxIds("a").size() > 50);

            wan.cutWan();
            Instant cut = Instant.now();
            phase.set("outage");
            // FLASH and IMMEDIATE among the ROUTINE load, while the WAN is down and across both gateways' restarts.
            List<String> urgent = new ArrayList<>();
            urgent.addAll(insert(wan, "a", "outage-flash-1", 20, i -> "FLASH"));
            wan.gateway("s1").kill();
            urgent.addAll(insert(wan, "a", "outage-immediate-1", 20, i -> "IMMEDIATE"));
            wan.startGateway("s1");
            wan.gateway("s2").kill();
            wan.startGateway("s2");
            wan.gateway("s1").awaitAnswering(WanCluster.STARTUP);
            wan.gateway("s2").awaitAnswering(WanCluster.STARTUP);
            List<String> lateFlash = insert(wan, "a", "outage-flash-2", 20, i -> "FLASH");
            urgent.addAll(lateFlash);
            urgent.addAll(insert(wan, "a", "outage-immediate-2", 20, i -> "IMMEDIATE"));
            // Written after both restarts: s1's store holds it because of the cut alone.
            String held = lateFlash.getFirst();
            await().alias("the trail of " + held + " while the WAN is cut").atMost(DELIVERY)
                    .pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> assertHeldAtS1(wan, held));
            // The stimulus: the outage lasts 60 s (longer if the gateways took longer to start again).
            Duration left = Duration.between(Instant.now(), cut.plusSeconds(60));
            if (left.isPositive()) {
                TimeUnit.MILLISECONDS.sleep(left.toMillis());
            }
            assertThat(wan.inboxIds("c")).as("nothing written during the outage crossed the cut WAN")
                    .noneMatch(id -> id.contains("outage"));
            assertHeldAtS1(wan, held);
            phase.set("after");
            wan.restoreWan();
            TimeUnit.SECONDS.sleep(5); // the stimulus: a little load after the restore too
            stop.set(true);
            List<String> sentByA = new ArrayList<>(loadA.get(30, TimeUnit.SECONDS));
            sentByA.addAll(urgent);
            List<String> sentByC = loadC.get(30, TimeUnit.SECONDS);

            await().alias("every message after the outage").atMost(DELIVERY).pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> {
                        assertThat(wan.inboxIds("c")).as("c's inbox").hasSameElementsAs(sentByA);
                        assertThat(wan.inboxIds("a")).as("a's inbox").hasSameElementsAs(sentByC);
                    });
            assertThat(wan.inboxIds("c")).hasSize(sentByA.size());
            // Each hop's step once: a single delivery into c's inbox, no second copy stored or delivered at s2.
            await().alias("the trail of " + held + " after the outage").atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> {
                        Trail trail = Trail.of(wan.trace(held));
                        assertThat(trail.steps()).as(trail.printed()).containsExactlyInAnyOrder(
                                "node a sent c jms FLASH -", "site s1 stored s2 jms FLASH from this site's LAN",
                                "site s2 stored @lan lan FLASH from site s1", "site s1 acknowledged s2 jms FLASH -",
                                "site s2 delivered @lan lan FLASH -", "node c delivered a jms FLASH -");
                        assertThat(trail.position()).as(trail.printed()).matches("delivered into c's inbox at " + AT);
                        // And the hops it carried, as c's inbox keeps them: each site's gateway once.
                        assertThat(trail.hops()).as(trail.printed()).containsExactly("node a sent",
                                "site s1 relayed", "site s2 relayed", "node c delivered");
                    });
            // The origin's site learns the fate from s2's gateway, which forwards its steps there: s1's log alone says
            // where the message went after it left.
            await().alias("s2's steps with " + held + " forwarded to s1").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
                        String atS1 = wan.gateway("s1").get("/actuator/custody/" + held).body();
                        List<String> fromS2 = JsonPath.read(atS1, "$.steps[?(@.hop == 's2')].event");
                        assertThat(fromS2).as(atS1).containsExactly("delivered");
                        assertThat((String) JsonPath.read(atS1, "$.position")).as(atS1)
                                .matches("delivered onto site s2's LAN at " + AT);
                    });
            // And a, the originator, has a delivery report of each FLASH it wrote during the outage, from site s2, once
            // the link returned; none of the ROUTINE load, which asks for none.
            List<String> flashes = urgent.stream().filter(id -> id.contains("flash")).toList();
            await().alias("a's delivery reports of its FLASH messages").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> assertThat(wan.client("a")
                            .deliveryReports().stream().filter(r -> r.messageId().contains("outage"))
                            .map(r -> r.messageId() + " " + r.reportedBy() + " " + r.event() + " " + r.delivered()))
                            .containsExactlyInAnyOrderElementsOf(flashes.stream()
                                    .map(id -> id + " site s2 delivered true").toList()));
            assertThat(wan.client("a").deliveryReports()).as("a's reports: of its FLASH messages alone")
                    .allMatch(r -> flashes.contains(r.messageId()));

            // Of what was written during the outage, every FLASH and IMMEDIATE arrived before any ROUTINE.
            List<InboxRow> arrived = wan.client("c").inbox().stream()
                    .filter(row -> row.messageId().contains("outage")).toList();
            List<String> order = arrived.stream().map(InboxRow::precedence).toList();
            int lastUrgent = Math.max(order.lastIndexOf("FLASH"), order.lastIndexOf("IMMEDIATE"));
            int firstRoutine = order.indexOf("ROUTINE");
            assertThat(order).as("precedences written during the outage, in c's arrival order")
                    .contains("FLASH", "IMMEDIATE", "ROUTINE");
            assertThat(lastUrgent).as("last FLASH/IMMEDIATE before first ROUTINE in %s", order)
                    .isLessThan(firstRoutine);
            assertThat(order.lastIndexOf("FLASH")).as("last FLASH before first IMMEDIATE in %s", order)
                    .isLessThan(order.indexOf("IMMEDIATE"));
        }
    }

    /**
     * Over the {@code norm} link, under load both ways, gateway s1 is killed with SIGKILL and started again, then
     * gateway s2: every message arrives exactly once, and nothing stays in either gateway's custody. Just before each
     * kill both nodes write a burst, more than the narrow link (64 kbit/s) carries at once, so that messages are at
     * every hop when the gateway dies: in the outboxes, in the LAN, in its store's backlog, in NORM's queue, received
     * and not yet stored. The link drops some of its own packets ({@code tx-loss}) so that NORM's repair is at work
     * across the restarts too.
     */
    @Test
    void theNormLinkKeepsCustodyAcrossAKillOfEitherGateway() throws Exception {
        try (WanCluster wan = new WanCluster(dir, Variant.NORM, sites("s1", List.of("a"), "s2", List.of("c")),
                Map.of("gateway.wan.norm.tx-loss", "10", "gateway.wan.schedule.budget-bits-per-second", "64000"))) {
            wan.startAll();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<String> phase = new AtomicReference<>("before");
            CompletableFuture<List<String>> loadA = load(wan, "a", stop, phase);
            CompletableFuture<List<String>> loadC = load(wan, "c", stop, phase);
            await().atMost(DELIVERY).until(() -> wan.inboxIds("c").size() > 30 && wan.inboxIds("a").size() > 30);

            List<String> bursts = new ArrayList<>();
            for (String site : List.of("s1", "s2")) {
                phase.set("kill-" + site);
                for (String node : List.of("a", "c")) {
                    bursts.addAll(insert(wan, node, "burst-" + site, BURST, i -> null));
                }
                // The stimulus: the burst is on its way, through the gateway about to die.
                TimeUnit.MILLISECONDS.sleep(500);
                wan.gateway(site).kill();
                wan.startGateway(site).awaitAnswering(WanCluster.STARTUP);
                // The link is back both ways: messages written after the restart arrive, before the next kill.
                String restarted = "after-" + site;
                phase.set(restarted);
                await().alias("traffic after the restart of " + site).atMost(DELIVERY)
                        .pollInterval(Duration.ofSeconds(1))
                        .until(() -> wan.inboxIds("c").stream().anyMatch(id -> id.contains(restarted))
                                && wan.inboxIds("a").stream().anyMatch(id -> id.contains(restarted)));
            }
            stop.set(true);
            List<String> sentByA = new ArrayList<>(loadA.get(30, TimeUnit.SECONDS));
            List<String> sentByC = new ArrayList<>(loadC.get(30, TimeUnit.SECONDS));
            bursts.forEach(id -> (id.startsWith("a-") ? sentByA : sentByC).add(id));

            everyMessageOnceAndNoneInCustody(wan, "both restarts", sentByA, sentByC,
                    List.of(wan.gateway("s1"), wan.gateway("s2")));
        }
    }

    /**
     * Site s1's gateway as an active/standby pair on one store ({@code gateway.wan.pair}; DDS LANs over the dds and
     * the norm link, JMS LANs over the jms link): with thousands of messages under way both ways, the leader is killed
     * with SIGKILL. The standby takes the lease once it runs out, opens the store and the link, and every message
     * arrives exactly once; a FLASH written at the kill on each side tells when the site relays again. Prints the
     * FAILOVER line of docs/results.md. Over JMS the gateways' LAN and WAN brokers are primary/backup pairs, running on
     * both from the start: what the dead leader's brokers had accepted is in the standby's.
     */
    @ParameterizedTest
    @EnumSource(names = {"DDS", "NORM", "JMS"})
    void aSitesGatewayPairSurvivesTheKillOfItsLeaderAndDeliversEveryMessageOnce(Variant variant) throws Exception {
        leaderLost(variant, false);
    }

    /**
     * As the kill above, over the dds link, but the leader's machine hangs instead of dying (SIGSTOP): its connections
     * stay open, so the store sees an idle session still holding it, as it would of a machine frozen or cut from the
     * network. The standby takes the lease once it runs out and ends that session to open the store. Thawed once the
     * standby leads, the old leader finds its lease taken and stops with 75 (the supervisor starts it again as the
     * standby); whatever it still had in hand duplicates nothing. (Over JMS the same loses and duplicates nothing
     * either, but the standby's brokers notice their silent primaries only after some 25 s and its clients wait out
     * 30 s calls to them: docs/results.md.)
     */
    @Test
    void aSitesGatewayPairSurvivesItsLeaderHangingWithItsConnectionsOpen() throws Exception {
        leaderLost(Variant.DDS, true);
    }

    /**
     * A standby's health: each side UP as the standby; over JMS, its LAN and link brokers (the backups of the
     * leader's) hold their primaries' journals, without which they could not take over the leader's messages. Its
     * gateway_wan_pair_ready gauge says the same.
     */
    private static void readyToTakeOver(NodeProcess standby, Variant variant) throws Exception {
        assertThat(WanCluster.metric(standby, "gateway_wan_pair_ready{")).as("gateway_wan_pair_ready").isEqualTo(1);
        String health = standby.get("/actuator/health").body();
        for (String side : List.of("lan", "wanLink", "store")) {
            assertThat((String) JsonPath.read(health, "$.components." + side + ".details.role")).as(health)
                    .isEqualTo("standby");
            assertThat((String) JsonPath.read(health, "$.components." + side + ".status")).as(health).isEqualTo("UP");
        }
        if (variant == Variant.JMS) {
            NodeProcess.assertSynchronizedBackup(health, "lan");
            NodeProcess.assertSynchronizedBackup(health, "wanLink");
        }
    }

    private void leaderLost(Variant variant, boolean hangs) throws Exception {
        try (WanCluster wan = new WanCluster(dir, variant, sites("s1", List.of("a"), "s2", List.of("c")),
                Map.of("gateway.wan.pair.enabled", "true"))) {
            wan.pair("s1");
            wan.startAll();
            NodeProcess leader = wan.gateway("s1");
            // The first gateway leads before the second starts. Of two gateways starting together either may lead
            // (the election runs once a gateway's brokers are up, seconds after its HTTP port answers), and this case
            // kills the one whose brokers are the primaries.
            awaitLeads("the first gateway of s1", leader, WanCluster.STARTUP);
            NodeProcess standby = wan.startStandby("s1").awaitAnswering(WanCluster.STARTUP);
            assertThat(leads(standby)).as("the second gateway of s1 leads").isFalse();
            // What an operator checks before taking the leader down: the standby's health, UP once it can take over.
            await().alias("the standby ready to take over").atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(500)).untilAsserted(() -> readyToTakeOver(standby, variant));
            CompletableFuture<List<String>> fromA = produce(wan, "a", 2000, i -> "ROUTINE");
            CompletableFuture<List<String>> fromC = produce(wan, "c", 2000, i -> "ROUTINE");
            await().atMost(DELIVERY).until(() -> wan.inboxIds("c").size() > 300 && wan.inboxIds("a").size() > 300);

            int atFault = wan.inboxIds("c").size();
            long lost = System.nanoTime();
            if (hangs) {
                leader.freeze();
            }
            else {
                leader.kill();
            }
            Flashes flash = Flashes.written(wan, "at-fault");
            awaitLeads("the standby", standby, Duration.ofSeconds(30));
            Duration takeover = Duration.ofNanos(System.nanoTime() - lost);
            Duration toC = untilDelivered(wan, "a", "c", flash.fromA(), lost, standby, wan.gateway("s2"));
            Duration toA = untilDelivered(wan, "c", "a", flash.fromC(), lost, standby, wan.gateway("s2"));
            if (hangs) {
                leader.thaw();
                assertThat(leader.awaitExit(Duration.ofSeconds(60))).as("the thawed leader's exit code").isEqualTo(75);
            }

            everyMessageOnceAndNoneInCustody(wan, "the takeover", flash.withSentBy("a", fromA),
                    flash.withSentBy("c", fromC), List.of(standby, wan.gateway("s2")));
            System.out.printf("FAILOVER %s link | site s1's leading WAN gateway %s, its standby leads %d ms later "
                    + "(pair settings as shipped) | %d in c's inbox at the fault | a FLASH written at the fault reached "
                    + "c after %d ms, one from c reached a after %d ms (polled every 50 ms) | lost 0 | duplicated 0%n",
                    variant.link(), hangs ? "hung (SIGSTOP, connections open; thawed later, it stopped with 75)"
                            : "killed", takeover.toMillis(), atFault, toC.toMillis(), toA.toMillis());
        }
    }

    /**
     * Site s1's store as a primary and a synchronous streaming standby, the gateway given both through PgJDBC's
     * multi-host URL (DDS LANs and the dds link, JMS LANs and the jms link): with thousands of messages under way both
     * ways, the store's primary is killed with SIGKILL and the standby promoted; the gateway carries on on the
     * promoted standby, every message arrives exactly once, and nothing stays in its custody. Prints the FAILOVER line
     * of docs/results.md.
     */
    @ParameterizedTest
    @EnumSource(names = {"DDS", "JMS"})
    void aSitesGatewayCarriesOnWhenItsStoreFailsOverToItsStandby(Variant variant) throws Exception {
        try (WanCluster wan = new WanCluster(dir, variant, sites("s1", List.of("a"), "s2", List.of("c")),
                Map.of())) {
            wan.standbyStore("s1");
            wan.startAll();
            CompletableFuture<List<String>> fromA = produce(wan, "a", 2000, i -> "ROUTINE");
            CompletableFuture<List<String>> fromC = produce(wan, "c", 2000, i -> "ROUTINE");
            await().atMost(DELIVERY).until(() -> wan.inboxIds("c").size() > 300 && wan.inboxIds("a").size() > 300);

            int atFault = wan.inboxIds("c").size();
            long killed = System.nanoTime();
            long promoted = wan.failoverStore("s1");
            Flashes flash = Flashes.written(wan, "at-failover");
            Duration toC = untilDelivered(wan, "a", "c", flash.fromA(), promoted, wan.gateway("s1"), wan.gateway("s2"));
            Duration toA = untilDelivered(wan, "c", "a", flash.fromC(), promoted, wan.gateway("s1"), wan.gateway("s2"));

            everyMessageOnceAndNoneInCustody(wan, "the store's failover", flash.withSentBy("a", fromA),
                    flash.withSentBy("c", fromC), List.of(wan.gateway("s1"), wan.gateway("s2")));
            System.out.printf("FAILOVER %s link | site s1's store: its primary killed, its standby promoted %d ms later;"
                    + " time from the promotion | %d in c's inbox at the fault | a FLASH written then reached c after %d"
                    + " ms, one from c reached a after %d ms (polled every 50 ms) | lost 0 | duplicated 0%n",
                    variant.link(), Duration.ofNanos(promoted - killed).toMillis(), atFault, toC.toMillis(),
                    toA.toMillis());
        }
    }

    /**
     * {@code held}, written at a for c while the WAN is cut, as an operator finds it: sent by a, stored at s1's
     * gateway and not acknowledged by s2, not seen at s2 nor c; s1's gateway says the same of its own part.
     */
    private static void assertHeldAtS1(WanCluster wan, String held) throws Exception {
        Trail trail = Trail.of(wan.trace(held));
        assertThat(trail.steps()).as(trail.printed()).containsExactly("node a sent c jms FLASH -",
                "site s1 stored s2 jms FLASH from this site's LAN");
        assertThat(trail.hops()).as("in no inbox asked yet: " + trail.printed()).isEmpty();
        assertThat(trail.position()).as(trail.printed())
                .matches("stored at gateway s1 since " + AT + ", not yet acknowledged by s2; not yet seen at c");
        String atS1 = wan.gateway("s1").get("/actuator/custody/" + held).body();
        assertThat((String) JsonPath.read(atS1, "$.position")).as(atS1)
                .matches("stored at gateway s1 since " + AT + ", not yet acknowledged by s2");
    }

    /**
     * What {@code gateway trace} printed of a message: its steps, each as its columns but the time, one space apart;
     * the hops it carried into the inboxes asked, each as where and action; and its last known position.
     */
    private record Trail(String printed, List<String> steps, List<String> hops, String position) {

        private static final String POSITION = "Last known position: ";
        private static final String CARRIED = "Hops it carried into ";

        static Trail of(String printed) {
            List<String> lines = printed.lines().toList();
            assertThat(lines.getLast()).as(printed).startsWith(POSITION);
            int carried = lines.stream().filter(line -> line.startsWith(CARRIED)).findFirst().map(lines::indexOf)
                    .orElse(lines.size() - 1);
            // Below the first line and the table's headings; columns are two spaces apart or more.
            List<String> steps = lines.subList(2, carried).stream().map(Trail::withoutTime).toList();
            List<String> hops = carried == lines.size() - 1 ? List.of()
                    : lines.subList(carried + 2, lines.size() - 1).stream().map(Trail::withoutTime).toList();
            return new Trail(printed, steps, hops, positionIn(printed));
        }

        /** The last line trace printed: the position without its label, or the line as it is where it gave none. */
        static String positionIn(String printed) {
            String last = printed.strip().lines().reduce((first, next) -> next).orElse("");
            return last.startsWith(POSITION) ? last.substring(POSITION.length()) : last;
        }

        private static String withoutTime(String row) {
            String cells = row.strip();
            return cells.substring(cells.indexOf(' ')).strip().replaceAll(" {2,}", " ");
        }
    }

    /** A FLASH written on each side at a fault: when each reaches the other side tells when the sites relay again. */
    private record Flashes(String fromA, String fromC) {

        static Flashes written(WanCluster wan, String tag) throws Exception {
            return new Flashes(insert(wan, "a", tag, 1, i -> "FLASH").getFirst(),
                    insert(wan, "c", tag, 1, i -> "FLASH").getFirst());
        }

        /** What {@code node} wrote: its stream, once written, and its FLASH. */
        List<String> withSentBy(String node, CompletableFuture<List<String>> stream) throws Exception {
            List<String> sent = new ArrayList<>(stream.get(120, TimeUnit.SECONDS));
            sent.add("a".equals(node) ? fromA : fromC);
            return sent;
        }
    }

    /**
     * What a sent is in c's inbox and what c sent in a's, each message once, and no copy is left in the custody of
     * {@code gateways}, after {@code fault}.
     */
    private static void everyMessageOnceAndNoneInCustody(WanCluster wan, String fault, List<String> sentByA,
            List<String> sentByC, List<NodeProcess> gateways) throws Exception {
        await().alias("every message after " + fault).atMost(DELIVERY).pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    assertThat(wan.inboxIds("c")).as("c's inbox").hasSameElementsAs(sentByA);
                    assertThat(wan.inboxIds("a")).as("a's inbox").hasSameElementsAs(sentByC);
                });
        assertThat(wan.inboxIds("c")).hasSize(sentByA.size());
        assertThat(wan.inboxIds("a")).hasSize(sentByC.size());
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            for (NodeProcess gateway : gateways) {
                assertThat(WanCluster.metric(gateway, "gateway_wan_store_copies{")).as("copies in a store").isZero();
            }
        });
    }

    private static boolean leads(NodeProcess gateway) throws Exception {
        return WanCluster.metric(gateway, "gateway_wan_pair_leader{") == 1;
    }

    /**
     * Waits, polling every 50 ms, until {@code gateway} leads its pair; if it does not within {@code atMost}, the
     * failure shows how its log ends (the election's grants and revokes, the relay's start): a build machine keeps
     * the test's output, not its directory.
     */
    private static void awaitLeads(String alias, NodeProcess gateway, Duration atMost) {
        try {
            await().alias(alias + " leads").atMost(atMost).pollInterval(Duration.ofMillis(50))
                    .until(() -> leads(gateway));
        }
        catch (ConditionTimeoutException ex) {
            throw new AssertionError(alias + " does not lead within " + atMost.toSeconds() + " s\n"
                    + gateway.logEnd(), ex);
        }
    }

    /**
     * How long from {@code since} (System.nanoTime) until {@code id} is in node {@code node}'s inbox. If it is not
     * within {@link #DELIVERY}, the failure says where the message is, as {@code gateway trace} finds it, and how the
     * logs of the node that sent it ({@code from}) and of the {@code gateways} end, with the sender's health (its
     * poller's problem, its DDS matches and handshakes): a build machine keeps the test's output, not its directory.
     */
    private static Duration untilDelivered(WanCluster wan, String from, String node, String id, long since,
            NodeProcess... gateways) {
        try {
            await().alias(id + " in " + node + "'s inbox").atMost(DELIVERY).pollInterval(Duration.ofMillis(50))
                    .until(() -> wan.inboxIds(node).contains(id));
        }
        catch (ConditionTimeoutException ex) {
            // The position first: a build's summary shows a failure's first line. Whatever the trace says (a message
            // not seen anywhere, a database out of reach) must not hide the timeout or the logs below.
            String printed;
            try {
                printed = wan.trace(id);
            }
            catch (RuntimeException traceFailed) {
                printed = traceFailed.getMessage();
            }
            String position = Trail.positionIn(printed);
            StringBuilder report = new StringBuilder(id).append(" not in ").append(node).append("'s inbox within ")
                    .append(DELIVERY.toSeconds()).append(" s, ").append(wan.variant()).append(" variant; last known "
                    + "position: ").append(position).append('\n').append(printed);
            NodeProcess sender = wan.node(from);
            report.append('\n').append(sender.logEnd()).append('\n').append(from).append("'s health: ");
            try {
                report.append(sender.get("/actuator/health").body());
            }
            catch (IOException | RuntimeException unanswered) {
                report.append(unanswered);
            }
            catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                report.append(interrupted);
            }
            for (NodeProcess gateway : gateways) {
                report.append('\n').append(gateway.logEnd());
            }
            throw new AssertionError(report.toString(), ex);
        }
        return Duration.ofNanos(System.nanoTime() - since);
    }

    /**
     * The gateway runs the documented example: the same properties, and the same values but for addresses, ports,
     * directories and domains, which are this machine's; the test's own settings for loopback are named here.
     */
    private static void assertRunsTheExample(GatewayLaunch launch, Path example) throws Exception {
        Properties documented = new Properties();
        try (Reader in = Files.newBufferedReader(example)) {
            documented.load(in);
        }
        Map<String, String> run = new LinkedHashMap<>(launch.publicProperties());
        run.keySet().removeAll(Set.of("gateway.wan.jms.max-reconnect-backoff"));
        assertThat(run.keySet()).as("the properties of %s", example)
                .containsExactlyInAnyOrderElementsOf(documented.stringPropertyNames());
        Pattern machineSpecific = Pattern.compile(".*(url|host|port|address|directory|domain-id|peers(\\..*)?)");
        run.forEach((key, value) -> {
            if (!machineSpecific.matcher(key).matches()) {
                assertThat(value).as("%s in %s", key, example).isEqualTo(documented.getProperty(key));
            }
        });
    }

    /** Keeps writing ROUTINE messages, about 10 a second, named by the phase they were written in, until stopped. */
    private static CompletableFuture<List<String>> load(WanCluster wan, String node, AtomicBoolean stop,
            AtomicReference<String> phase) {
        return CompletableFuture.supplyAsync(() -> {
            List<String> ids = new ArrayList<>();
            AtomicInteger serial = new AtomicInteger();
            try {
                while (!stop.get()) {
                    String id = node + "-" + phase.get() + "-routine-" + serial.incrementAndGet();
                    wan.client(node).insertRaw(RawOutboxRow.of(id, TYPE, "ROUTINE",
                            EndToEndContract.message(TYPE, serial.get()), null));
                    ids.add(id);
                    // The stimulus, not a wait: a steady load.
                    TimeUnit.MILLISECONDS.sleep(100);
                }
                return ids;
            }
            catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
        }, WRITERS);
    }

    /** Writes {@code count} messages in the background, a few at a time, like an application at work. */
    private static CompletableFuture<List<String>> produce(WanCluster wan, String node, int count,
            IntFunction<String> precedence) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                List<String> ids = new ArrayList<>();
                for (int i = 0; i < count; i += 20) {
                    ids.addAll(insert(wan, node, Integer.toString(i), Math.min(20, count - i), precedence));
                    // The stimulus, not a wait: pacing keeps the stream going.
                    TimeUnit.MILLISECONDS.sleep(20);
                }
                return ids;
            }
            catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
        }, WRITERS);
    }

    private static List<String> insert(WanCluster wan, String node, String prefix, int count,
            IntFunction<String> precedence) throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String id = node + "-" + prefix + "-" + i;
            wan.client(node).insertRaw(RawOutboxRow.of(id, TYPE, precedence.apply(i), EndToEndContract.message(TYPE, i),
                    null));
            ids.add(id);
        }
        return ids;
    }

    private static Set<String> union(List<String> first, List<String> second) {
        Set<String> all = new HashSet<>(first);
        all.addAll(second);
        return Collections.unmodifiableSet(all);
    }

    private static Map<String, List<String>> sites(Object... siteAndNodes) {
        Map<String, List<String>> sites = new LinkedHashMap<>();
        for (int i = 0; i < siteAndNodes.length; i += 2) {
            @SuppressWarnings("unchecked")
            List<String> nodes = (List<String>) siteAndNodes[i + 1];
            sites.put((String) siteAndNodes[i], nodes);
        }
        return sites;
    }
}
