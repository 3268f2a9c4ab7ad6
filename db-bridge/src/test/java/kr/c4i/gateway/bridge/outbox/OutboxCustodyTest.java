package kr.c4i.gateway.bridge.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.bridge.config.OutboxProperties.BadRowPolicy;
import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.bridge.quarantine.QuarantineRepository;
import kr.c4i.gateway.bridge.support.InterfaceDatabase;
import kr.c4i.gateway.bridge.support.Kmtf;
import kr.c4i.gateway.bridge.support.RecordingTransport;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.Clearances;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.kmtf.KmtfValidator;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;

/**
 * The custody log is written in the transaction of the step it records: an outbox transaction that fails at its
 * commit, after everything in it ran (a deferred constraint of the outbox refuses the rows marked sent), leaves the
 * rows unsent and no step logged; sent again, the step is logged once.
 */
class OutboxCustodyTest {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    private static final NodeId A = NodeId.of("a");

    @TempDir
    Path dir;

    private InterfaceDatabase db;
    private final RecordingTransport transport = new RecordingTransport();

    @BeforeEach
    void start() throws Exception {
        db = new InterfaceDatabase(dir.resolve("pg"));
    }

    @AfterEach
    void stop() throws Exception {
        db.close();
    }

    @Test
    void aSendRolledBackAtCommitLeavesNoStepLoggedAndTheSendThatCommitsLeavesOne() throws Exception {
        OutboxPublisher publisher = new OutboxPublisher(db.dataSource(), new OutboxRepository(db.dataSource()),
                new QuarantineRepository(), new RowEnvelopes(new KmtfValidator(CATALOGUE),
                        RoutingTable.of(Map.of(NodeId.of("b"), List.of("*")), CATALOGUE), A,
                        Clearances.unrestricted(), new BridgeMetrics(new SimpleMeterRegistry(), TransportKind.JMS)),
                A, transport, new BridgeMetrics(new SimpleMeterRegistry(), TransportKind.JMS),
                BadRowPolicy.QUARANTINE, null, new RowFailures(5), new CustodyLog("a", "jms"));
        db.execute("INSERT INTO outbox (message_id, kmtf_type, body) VALUES ('m-1', 'SITREP', convert_to(?, 'UTF8'))",
                Kmtf.message("SITREP", 1));
        db.execute("CREATE FUNCTION refuse_at_commit() RETURNS trigger LANGUAGE plpgsql AS "
                + "$$ BEGIN RAISE EXCEPTION 'the outbox refuses it at commit (test)'; END $$");
        db.execute("CREATE CONSTRAINT TRIGGER outbox_refused_at_commit AFTER UPDATE ON outbox "
                + "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_at_commit()");

        assertThatThrownBy(() -> publisher.publishBatch(10)).isInstanceOf(SQLException.class)
                .hasMessageContaining("refuses it at commit");

        assertThat(transport.sent).as("handed to the transport before the commit failed").hasSize(1);
        assertThat(db.count("SELECT count(*) FROM outbox WHERE sent_at IS NULL")).isEqualTo(1);
        assertThat(db.count("SELECT count(*) FROM custody_log")).isZero();

        db.execute("DROP TRIGGER outbox_refused_at_commit ON outbox");
        assertThat(publisher.publishBatch(10)).isEqualTo(1);

        assertThat(db.strings("SELECT event || ' ' || array_to_string(message_ids, ',') || ' ' || hop || ' ' || link "
                + "FROM custody_log")).containsExactly("sent m-1 a jms");
    }
}
