package kr.c4i.gateway.wan.relay;

import static kr.c4i.gateway.wan.relay.RelayEngineJmsTest.A;
import static kr.c4i.gateway.wan.relay.RelayEngineJmsTest.C;
import static kr.c4i.gateway.wan.relay.RelayEngineJmsTest.S1;
import static kr.c4i.gateway.wan.relay.RelayEngineJmsTest.S2;
import static kr.c4i.gateway.wan.relay.RelayEngineJmsTest.WAIT;
import static kr.c4i.gateway.wan.relay.RelayEngineJmsTest.messages;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * A message of a type the gateway's catalogue does not define (e.g. its origin has a newer catalogue) is kept in the
 * gateway's {@code relay_quarantine}, not dropped, and acknowledged on the LAN only once it is kept there; the good
 * messages around it relay as ever. Real nodes, brokers and databases, as in {@link RelayEngineJmsTest}.
 */
@Timeout(300)
class RelayQuarantineJmsTest {

    @TempDir
    Path dir;

    @Test
    void anUnknownTypeIsQuarantinedAndTheGoodMessagesBesideItStillRelay() throws Exception {
        try (JmsSites sites = twoSites()) {
            List<Envelope> good = messages(A, 40, null, 200);
            Envelope unknown = unknownType("zz-1");

            sendInOneTransaction(sites, good, unknown);

            await().atMost(WAIT).until(() -> sites.site(S2).received() == good.size());
            await().atMost(WAIT).until(() -> quarantined(sites, "relay_quarantine").size() == 1);
            assertThat(sites.site(S2).inbox.keySet()).isEqualTo(ids(good));
            assertThat(quarantined(sites, "relay_quarantine")).containsExactly("zz-1 a ZZNEW 3 unknown-type "
                    + new String(unknown.body(), StandardCharsets.UTF_8));
            assertThat(sites.site(S1).counted(MetricNames.WAN_QUARANTINED)).isEqualTo(1);
            assertThat(sites.site(S1).counted(MetricNames.WAN_DROPPED)).isZero();
            await().atMost(WAIT).until(() -> sites.stored() == 0);
            sites.assertDeliveredOnceOrResent();
        }
    }

    @Test
    void aMessageTheQuarantineCannotKeepIsNotAcknowledgedSoItComesAgainAndIsKeptOnce() throws Exception {
        try (JmsSites sites = twoSites()) {
            execute(sites, "ALTER TABLE relay_quarantine RENAME TO relay_quarantine_away");
            List<Envelope> good = messages(A, 40, null, 200);
            Envelope unknown = unknownType("zz-2");

            sendInOneTransaction(sites, good, unknown);

            // The good ones are stored and relay although their batch is rolled back until the unknown one is kept.
            await().atMost(WAIT).until(() -> sites.site(S2).received() == good.size());
            assertThat(quarantined(sites, "relay_quarantine_away")).isEmpty();
            assertThat(sites.site(S1).counted(MetricNames.WAN_QUARANTINED)).isZero();
            Envelope another = messages(A, 1, Precedence.FLASH, 200).getFirst();
            Set<String> taken = sites.site(S1).engine.ingest(List.of(another, unknown));
            assertThat(taken).as("what ingest acknowledges while the quarantine fails")
                    .containsExactly(another.messageId());

            execute(sites, "ALTER TABLE relay_quarantine_away RENAME TO relay_quarantine");

            // The LAN side redelivers it, and this time it is kept.
            await().atMost(WAIT).until(() -> quarantined(sites, "relay_quarantine").size() == 1);
            assertThat(sites.site(S1).engine.ingest(List.of(unknown, unknown))).as("offered again: absorbed")
                    .containsExactly(unknown.messageId());
            assertThat(quarantined(sites, "relay_quarantine")).hasSize(1);
            assertThat(sites.site(S1).counted(MetricNames.WAN_QUARANTINED)).isEqualTo(1);
            // A rolled-back batch's good messages come again and may cross again: the node's inbox absorbs them.
            Set<String> relayed = ids(good);
            relayed.add(another.messageId());
            await().atMost(WAIT).until(() -> sites.stored() == 0 && sites.site(S2).received() == relayed.size());
            assertThat(sites.site(S2).inbox.keySet()).isEqualTo(relayed);
        }
    }

    private JmsSites twoSites() throws Exception {
        return new JmsSites(dir, Map.of(S1, A, S2, C), Map.of(C, List.of("*")), 100_000_000L, Duration.ofSeconds(10),
                0.05);
    }

    /** A type node a knows (a newer catalogue, say) and the gateways do not. */
    private static Envelope unknownType(String id) {
        return new Envelope(id, A, "ZZNEW", Precedence.ROUTINE, "SECRET", Instant.now().truncatedTo(ChronoUnit.MICROS),
                ("EXER/ULCHI FREEDOM//\nMSGID/ZZNEW/1군단/" + id + "//").getBytes(StandardCharsets.UTF_8));
    }

    /** Node a sends the good messages and the unknown one amid them, committed together on its broker. */
    private static void sendInOneTransaction(JmsSites sites, List<Envelope> good, Envelope unknown) throws Exception {
        MessageType known = JmsSites.CATALOGUE.require("SITREP");
        MessageType zz = new MessageType("ZZNEW", "A type only the origin knows", known.category(), "kmtf/test/ZZNEW",
                known.reliability(), known.historyDepth(), known.durability(), Precedence.ROUTINE, known.maxSize());
        List<Outbound> batch = new ArrayList<>();
        for (int i = 0; i < good.size(); i++) {
            if (i == good.size() / 2) {
                batch.add(new Outbound(unknown, zz, List.of(C)));
            }
            Envelope envelope = good.get(i);
            batch.add(new Outbound(envelope, JmsSites.CATALOGUE.require(envelope.kmtfType()), List.of(C)));
        }
        sites.site(S1).transport.send(batch);
    }

    /** The rows of gateway 1's quarantine table as "id origin type precedence reason body". */
    private static List<String> quarantined(JmsSites sites, String table) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = sites.site(S1).database.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT concat_ws(' ', message_id, origin_node, kmtf_type, precedence, "
                        + "reason, convert_from(body, 'UTF8')) FROM " + table + " ORDER BY message_id")) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows;
    }

    private static void execute(JmsSites sites, String sql) throws SQLException {
        try (Connection c = sites.site(S1).database.getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static Set<String> ids(List<Envelope> envelopes) {
        return envelopes.stream().map(Envelope::messageId).collect(Collectors.toCollection(java.util.HashSet::new));
    }
}
