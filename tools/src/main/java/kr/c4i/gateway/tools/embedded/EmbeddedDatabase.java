package kr.c4i.gateway.tools.embedded;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import io.zonky.test.db.postgres.util.LinuxUtils;
import org.jspecify.annotations.Nullable;

/**
 * The embedded default's PostgreSQL, set up as an operator would set up an interface database: durable
 * ({@code fsync}, synchronous commit and full-page writes on, where zonky's test defaults turn the first two off),
 * listening on 127.0.0.1 only, and asking everyone for a password, the {@code postgres} superuser included.
 * <p>
 * The password is random per node, kept in a file readable by its owner only beside the data directory, so a
 * restarted node (or an operator's {@code psql}) finds it. It is set before the server first accepts a connection,
 * in single-user mode, so there is no moment when the server trusts anyone.
 */
public final class EmbeddedDatabase implements AutoCloseable {

    /** The superuser the bridge and the embedded "C4I application" connect as. */
    public static final String USER = "postgres";

    private static final String HBA_HEADER = "# c4i-gateway embedded node: every connection needs the password";
    private static final String HBA = HBA_HEADER + """

            local all all scram-sha-256
            host all all 127.0.0.1/32 scram-sha-256
            """;

    private final EmbeddedPostgres postgres;
    private final String password;
    private final Path dataDirectory;

    private EmbeddedDatabase(EmbeddedPostgres postgres, String password, Path dataDirectory) {
        this.postgres = postgres;
        this.password = password;
        this.dataDirectory = dataDirectory;
    }

    /**
     * Starts the server on {@code dataDirectory} with whatever {@code builder} already says (port, socket
     * directory, clean or kept data), made durable and password-protected.
     *
     * @param passwordFile where the superuser's password is kept (created on first use, mode 0600)
     */
    public static EmbeddedDatabase start(Path dataDirectory, Path passwordFile, EmbeddedPostgres.Builder builder)
            throws IOException {
        String password = password(passwordFile);
        EmbeddedPostgres postgres = builder.setDataDirectory(dataDirectory)
                // zonky passes -F (fsync off) and synchronous_commit=off; a later -c wins over -F.
                .setServerConfig("fsync", "on").setServerConfig("synchronous_commit", "on")
                .setServerConfig("full_page_writes", "on").setServerConfig("listen_addresses", "127.0.0.1")
                .setServerConfig("password_encryption", "scram-sha-256")
                .setOverrideWorkingDirectory(BinaryBundle.WORKING_DIRECTORY).setPgBinaryResolver(BinaryBundle.INSTANCE)
                .setDataDirectoryCustomizer(dir -> protect(dir.toPath(), password))
                .setConnectConfig("password", password).start();
        return new EmbeddedDatabase(postgres, password, dataDirectory);
    }

    /**
     * Starts the server as {@link #start} does, its data in {@code <home>/postgres} and the superuser's password in
     * {@code <home>/postgres.password}: a node's or a site gateway's database under its own folder.
     */
    public static EmbeddedDatabase startIn(Path home, EmbeddedPostgres.Builder builder) throws IOException {
        Path dataDirectory = home.resolve("postgres");
        Files.createDirectories(dataDirectory);
        // zonky's test default is 300; a node's or a gateway's pools need far fewer, and each costs shared memory.
        return start(dataDirectory, home.resolve("postgres.password"), builder.setServerConfig("max_connections", "60"));
    }

    /** Without credentials: they go as separate properties, never in a URL that is printed or logged. */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/postgres";
    }

    public int port() {
        return postgres.getPort();
    }

    public String password() {
        return password;
    }

    /**
     * The running server's postmaster, as its {@code postmaster.pid} names it; its backends and auxiliary processes are
     * its descendants.
     */
    public ProcessHandle server() throws IOException {
        String pid = Files.readAllLines(dataDirectory.resolve("postmaster.pid")).getFirst().strip();
        return ProcessHandle.of(Long.parseLong(pid)).orElseThrow(
                () -> new IOException("PostgreSQL's postmaster " + pid + " of " + dataDirectory + " is gone"));
    }

    /** An unpooled data source with the credentials, for setup and checks. */
    public DataSource dataSource() {
        return postgres.getPostgresDatabase();
    }

    @Override
    public void close() throws IOException {
        postgres.close();
    }

    /** The password in {@code file}, generated (256 random bits) and written with mode 0600 if there is none yet. */
    static String password(Path file) throws IOException {
        if (!Files.exists(file)) {
            String generated = Secrets.random();
            Files.createDirectories(file.toAbsolutePath().getParent());
            try {
                // Created with its mode, so it is never readable by others, not even for a moment.
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                Files.writeString(file, generated + "\n");
            }
            catch (FileAlreadyExistsException raced) {
                // another start wrote it first: use that one
            }
        }
        String password = Files.readString(file).strip();
        if (password.isEmpty()) {
            throw new IOException("Password file " + file + " is empty; delete it together with the data directory "
                    + "to start afresh, or write the postgres user's password into it");
        }
        return password;
    }

    /**
     * Before the server starts: on a data directory not yet protected (just made by initdb with zonky's
     * {@code trust}), sets the superuser's password in single-user mode and replaces pg_hba.conf.
     */
    private static void protect(Path dataDirectory, String password) {
        try {
            Path hba = dataDirectory.resolve("pg_hba.conf");
            if (Files.exists(hba) && Files.readString(hba).startsWith(HBA_HEADER)) {
                return;
            }
            setPassword(dataDirectory, password);
            Files.writeString(hba, HBA);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Unable to protect the embedded PostgreSQL in " + dataDirectory, ex);
        }
    }

    private static void setPassword(Path dataDirectory, String password) throws IOException {
        List<String> command = new ArrayList<>();
        if (LinuxUtils.isUnshareAvailable()) {
            // As zonky runs the server: PostgreSQL refuses to run as root.
            command.addAll(List.of("unshare", "-U"));
        }
        command.addAll(List.of(BinaryBundle.INSTANCE.postgres().toString(), "--single", "-D", dataDirectory.toString(),
                "-c", "log_min_error_statement=panic", "-c", "exit_on_error=on", USER));
        Process single = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (OutputStream in = single.getOutputStream()) {
            in.write(("ALTER ROLE " + USER + " PASSWORD '" + password + "'\n").getBytes(StandardCharsets.UTF_8));
        }
        String output = new String(single.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!single.waitFor(60, TimeUnit.SECONDS) || single.exitValue() != 0) {
                single.destroyForcibly();
                throw new IOException("Setting the postgres password in single-user mode failed: " + output.strip());
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            single.destroyForcibly();
            throw new IOException("Interrupted while setting the postgres password", ex);
        }
    }

    /**
     * zonky's own binary bundle, recorded as zonky unpacks it (into {@code <working dir>/PG-<md5 of the bundle>}),
     * so the single-user server runs from the same binaries as the server itself.
     */
    private static final class BinaryBundle implements PgBinaryResolver {

        static final BinaryBundle INSTANCE = new BinaryBundle();
        // zonky's default working directory, set explicitly so the path below is known
        static final File WORKING_DIRECTORY = new File(System.getProperty("ot.epg.working-dir",
                new File(System.getProperty("java.io.tmpdir"), "embedded-pg").getPath()));

        private volatile @Nullable String digest;

        @Override
        public InputStream getPgBinary(String system, String machineHardware) throws IOException {
            byte[] bundle;
            try (InputStream in = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(system, machineHardware)) {
                bundle = in.readAllBytes();
            }
            try {
                digest = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bundle));
            }
            catch (NoSuchAlgorithmException ex) {
                throw new IllegalStateException(ex);
            }
            return new ByteArrayInputStream(bundle);
        }

        Path postgres() throws IOException {
            Path binary = WORKING_DIRECTORY.toPath().resolve("PG-" + digest).resolve("bin").resolve("postgres");
            if (digest == null || !Files.isExecutable(binary)) {
                throw new IOException("PostgreSQL binary not found where zonky unpacks it: " + binary);
            }
            return binary;
        }
    }
}
