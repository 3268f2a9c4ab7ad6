package kr.c4i.gateway.tools.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import kr.c4i.gateway.bridge.DbBridgeApplication;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.core.transport.Transport;
import kr.c4i.gateway.dds.transport.DdsTransport;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;
import kr.c4i.gateway.jms.JmsTransportSettings;
import kr.c4i.gateway.tools.node.Launch;
import kr.c4i.gateway.tools.node.NodeLaunch;

/**
 * One node of the embedded default: its own PostgreSQL (the C4I server's interface database) and
 * its own bridge, an ordinary Spring Boot context of the service users deploy.
 */
final class EmbeddedNode implements AutoCloseable {


    private final NodeId id;
    private final EmbeddedDatabase database;
    private final int httpPort;
    private final Path home;
    private final HikariDataSource pool;
    private @Nullable ConfigurableApplicationContext context;
    private String managementUser;
    private @Nullable Path managementPasswordFile;

    private EmbeddedNode(NodeId id, EmbeddedDatabase database, int httpPort, Path home) {
        this.id = id;
        this.database = database;
        this.httpPort = httpPort;
        this.home = home;
        // The load generator and the probes are the "C4I application": pooled, like a real one.
        this.pool = new HikariDataSource();
        pool.setJdbcUrl(jdbcUrl());
        pool.setUsername(EmbeddedDatabase.USER);
        pool.setPassword(database.password());
        pool.setMaximumPoolSize(4);
        pool.setPoolName("app-" + id);
    }

    /** Starts the node's database only, on a fresh data directory; the bridge comes with {@link #startBridge}. */
    static EmbeddedNode startDatabase(NodeId id, Path workDir, int httpPort) throws IOException {
        return startDatabase(id, workDir, httpPort, EmbeddedPostgres.builder().setCleanDataDirectory(true));
    }

    /**
     * Starts the node's database keeping whatever its data directory holds, so a node restarted after a
     * crash finds its outbox and inbox as they were. The data live in {@code <workDir>/<id>/postgres}, the
     * superuser's password in {@code <workDir>/<id>/postgres.password}.
     */
    static EmbeddedNode startDatabase(NodeId id, Path workDir, int httpPort, EmbeddedPostgres.Builder builder)
            throws IOException {
        Path nodeDir = workDir.resolve(id.value());
        return new EmbeddedNode(id, EmbeddedDatabase.startIn(nodeDir, builder), httpPort, nodeDir);
    }

    /** Completes the launch with this node's database and management endpoints and starts the bridge. */
    void startBridge(NodeLaunch.Builder launch) throws IOException {
        launch.datasource(jdbcUrl(), EmbeddedDatabase.USER, database.password()).managementPort(httpPort);
        if (launch.build().managementPassword() == null) {
            String password = Secrets.random();
            managementPasswordFile = writeOwnerOnly(home.resolve(Launch.MANAGEMENT_PASSWORD_FILE), password);
            launch.managementPassword(password);
        }
        Map<String, String> properties = launch.build().properties();
        managementUser = properties.getOrDefault("spring.security.user.name", Launch.DEFAULT_MANAGEMENT_USER);
        // As command-line arguments, so they win over application.yaml like an operator's would.
        String[] arguments = properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        context = new SpringApplicationBuilder(DbBridgeApplication.class).run(arguments);
    }

    // No newline: curl -u user:"$(cat file)" and Prometheus' password_file read the password as it is.
    static Path writeOwnerOnly(Path file, String secret) throws IOException {
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        return Files.writeString(file, secret);
    }

    /** The management endpoints' user ({@code spring.security.user.name}). */
    String managementUser() {
        return managementUser;
    }

    /**
     * The file with this run's management password, made per node and per run (the embedded default has no
     * password of its own); null when the caller set {@code spring.security.user.password}.
     */
    @Nullable Path managementPasswordFile() {
        return managementPasswordFile;
    }

    String jdbcUrl() {
        return database.jdbcUrl();
    }

    DataSource database() {
        return pool;
    }

    /** The node's PostgreSQL server: its postmaster, whose descendants are its backends. */
    ProcessHandle databaseServer() throws IOException {
        return database.server();
    }

    NodeId id() {
        return id;
    }

    int httpPort() {
        return httpPort;
    }

    /** The transport the running bridge actually uses, as it names itself ({@code jms}, {@code dds}). */
    String transportKind() {
        return context == null ? "none" : context.getBean(Transport.class).kind().label();
    }

    /** The running bridge's security, as the demo shows it: what its transport settings turned on. */
    String security() {
        if (context == null) {
            return "none";
        }
        JmsTransportSettings jms = context.getBeanProvider(JmsTransportSettings.class).getIfAvailable();
        DdsTransportSettings dds = context.getBeanProvider(DdsTransportSettings.class).getIfAvailable();
        if (jms != null) {
            return jms.tls() == null ? "brokers in plain TCP" : "brokers in mutual TLS";
        }
        return dds != null && dds.participant().security() != null ? "DDS Security" : "DDS without security";
    }

    /** The node's embedded broker's port, or -1 without one. */
    int brokerPort() {
        JmsTransportSettings jms = context == null ? null
                : context.getBeanProvider(JmsTransportSettings.class).getIfAvailable();
        return jms == null ? -1 : jms.embedded().port();
    }

    /** BEST_EFFORT samples the running bridge's DDS transport counted as dropped, by reason; empty otherwise. */
    Map<String, Long> droppedSamples() {
        return context != null && context.getBean(Transport.class) instanceof DdsTransport dds ? dds.stats().dropped()
                : Map.of();
    }

    /** The bridge's end-to-end latency timer, once the bridge runs. */
    Optional<Timer> latencyTimer() {
        return context == null ? Optional.empty()
                : Optional.ofNullable(context.getBean(MeterRegistry.class).find(MetricNames.DELIVERY_LATENCY).timer());
    }

    /**
     * The bridge's own count of its outbox's unsent rows ({@code gateway.outbox.backlog}, refreshed every 2 s), which
     * costs no scan of the outbox; empty before the bridge runs.
     */
    OptionalDouble backlog() {
        if (context == null) {
            return OptionalDouble.empty();
        }
        var gauge = context.getBean(MeterRegistry.class).find(MetricNames.OUTBOX_BACKLOG).gauge();
        return gauge == null ? OptionalDouble.empty() : OptionalDouble.of(gauge.value());
    }

    void stopBridge() {
        if (context != null) {
            context.close();
            context = null;
        }
    }

    @Override
    public void close() throws IOException {
        stopBridge();
        pool.close();
        database.close();
    }
}
