package kr.c4i.gateway.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import kr.c4i.gateway.bridge.support.InterfaceDatabase;
import kr.c4i.gateway.bridge.support.RecordingTransport;
import kr.c4i.gateway.core.transport.Transport;
import kr.c4i.gateway.jdbc.DatabaseOwnedElsewhereException;

/**
 * The whole bridge, as deployed, on a real PostgreSQL: the first node that starts on an interface database owns it;
 * that node's bridges start on it again, another node's is refused before it sends anything.
 */
@ExtendWith(OutputCaptureExtension.class)
class InterfaceDatabaseOwnerTest {

    @TempDir
    Path dir;

    @Test
    void aBridgeOfAnotherNodeIsRefusedAtStartWithWhoseDatabaseItIsAndSendsNothing(CapturedOutput output)
            throws Exception {
        try (InterfaceDatabase db = new InterfaceDatabase(dir.resolve("pg"))) {
            start(db, "a").close();
            db.insertOutbox("SITREP", "UNCLASSIFIED\nMSGID/SITREP/OWNER/1//\n");
            RecordingTransport transport = new RecordingTransport();

            Throwable failure = catchThrowable(() -> start(db, "b", transport).close());

            assertThat(failure).hasRootCauseInstanceOf(DatabaseOwnedElsewhereException.class);
            // What the operator reads: one line saying whose database it is, not the bean's stack.
            assertThat(output).containsPattern("Description:\\s+The interface database \\(postgres\\) belongs to node "
                    + "a since [^\\n]+, and this process is node b \\(gateway.node.id\\): [^\\n]+\\s+Action:\\s+See "
                    + "docs/operator-guide.md");
            assertThat(transport.sent).isEmpty();
            assertThat(db.count("SELECT count(*) FROM outbox WHERE sent_at IS NULL")).isEqualTo(1);
            assertThat(db.strings("SELECT kind || ' ' || owner FROM database_owner")).containsExactly("node a");

            // Node a's own bridge (a restart, or its pair) is welcome, and sends the row.
            RecordingTransport ours = new RecordingTransport();
            try (ConfigurableApplicationContext again = start(db, "a", ours)) {
                await().untilAsserted(() -> assertThat(ours.sent).hasSize(1));
            }
        }
    }

    private static ConfigurableApplicationContext start(InterfaceDatabase db, String node) {
        return start(db, node, new RecordingTransport());
    }

    private static ConfigurableApplicationContext start(InterfaceDatabase db, String node, Transport transport) {
        // A recording transport in place of a broker: the user's bean wins.
        return new SpringApplicationBuilder(DbBridgeApplication.class)
                .initializers(context -> context.getBeanFactory().registerSingleton("transport", transport))
                .run("--gateway.node.id=" + node, "--spring.datasource.url=" + db.jdbcUrl(),
                        "--spring.datasource.username=postgres", "--spring.security.user.password=owner-test",
                        "--server.port=0", "--management.server.port=0", "--gateway.routing.subscriptions.z=*",
                        "--gateway.jms.user=gateway", "--gateway.jms.password=broker-secret",
                        "--gateway.jms.tls.plain-tcp=true");
    }
}
