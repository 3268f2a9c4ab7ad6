package kr.c4i.gateway.tools.trace;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import kr.c4i.gateway.custody.CustodyLogReader;
import kr.c4i.gateway.custody.CustodyTrail;
import kr.c4i.gateway.tools.ExitCode;

/**
 * Asks each database given what its custody log knows of a message and prints the trail: every step, oldest first,
 * and the last known position in one line. A database that cannot be read is one line on standard error; the others
 * still answer, and the exit code says the trail is incomplete.
 */
@Command(name = "trace", mixinStandardHelpOptions = true,
        header = "Show where a message is: the custody steps the given databases logged, and its last known position.",
        description = { "Reads the custody log (table custody_log) of each node's interface database and each WAN "
                + "gateway's relay store given, and prints every step they logged of MESSAGE-ID, oldest first: when "
                + "(each database server's clock, UTC), where, what, towards whom, over what link, and why; then the "
                + "last known position in one line; for each node's inbox that holds it, the hops the message "
                + "carried (its trace: every node and site it passed, with their times, even those not asked). "
                + "A message none of them logged is 'not seen here', with the databases asked.",
                "Each database is asked as --user (or the URL's user=), with the password of the PGPASSWORD "
                        + "environment variable, the URL's password= or ~/.pgpass: never on the command line, where "
                        + "every local user can read it." })
public final class TraceCommand implements Callable<Integer> {

    /** Seconds to wait for a database to answer the connection, and then a query. */
    private static final String CONNECT_TIMEOUT = "5";
    private static final String QUERY_TIMEOUT = "30";

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "MESSAGE-ID", description = "The message's id (its outbox.message_id).")
    String messageId;

    @Option(names = "--database", required = true, paramLabel = "JDBC-URL", converter = PostgresUrl.class,
            description = "A node's interface database or a WAN gateway's relay store, e.g. "
                    + "jdbc:postgresql://node-a:5432/ifdb. Repeatable: give every database whose steps you want.")
    List<String> databases = List.of();

    @Option(names = "--user", description = "The database user (the read-only role operators use will do); the "
            + "URL's, or the driver's default, when unset.")
    @Nullable String user;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<CustodyLogReader.Answer> answers = new ArrayList<>();
        List<String> asked = new ArrayList<>();
        int unread = 0;
        for (String url : databases) {
            try (Connection c = DriverManager.getConnection(url, connectionProperties())) {
                c.setReadOnly(true);
                CustodyLogReader.Answer answer = CustodyLogReader.read(c, messageId);
                asked.add(answer.place() + " (" + PostgresUrl.shown(url) + ")");
                answers.add(answer);
            }
            catch (SQLException ex) {
                err.println("trace: unable to read the custody log of " + PostgresUrl.shown(url) + ": "
                        + oneLine(ex));
                unread++;
            }
        }
        if (asked.isEmpty()) {
            return ExitCode.INCOMPLETE.code();
        }
        CustodyTrail trail = CustodyTrail.of(messageId, asked, answers);
        if (trail.seen()) {
            out.println("Message " + messageId + ", as " + String.join(", ", asked) + " logged it:");
            TraceTable.print(out, trail.steps());
            for (CustodyTrail.Carried carried : trail.carried()) {
                out.println("Hops it carried into " + carried.place() + "'s inbox:");
                TraceTable.printHops(out, carried.trace());
            }
            out.println("Last known position: " + trail.position());
        }
        else {
            out.println("Message " + messageId + ": " + trail.position());
        }
        out.flush();
        return unread == 0 ? ExitCode.OK.code() : ExitCode.INCOMPLETE.code();
    }

    private Properties connectionProperties() {
        Properties properties = new Properties();
        if (user != null) {
            properties.setProperty("user", user);
        }
        String password = System.getenv("PGPASSWORD");
        if (password != null) {
            properties.setProperty("password", password);
        }
        properties.setProperty("connectTimeout", CONNECT_TIMEOUT);
        properties.setProperty("loginTimeout", CONNECT_TIMEOUT);
        properties.setProperty("socketTimeout", QUERY_TIMEOUT);
        properties.setProperty("ApplicationName", "gateway trace");
        return properties;
    }

    /** The driver's message, which names the cause (refused, unknown host, authentication), on one line. */
    private static String oneLine(SQLException ex) {
        String message = ex.getMessage() == null ? ex.toString() : ex.getMessage();
        return message.lines().map(String::strip).reduce((a, b) -> a + " " + b).orElse(message);
    }

    /** A PostgreSQL JDBC URL, so that a mistyped one is a usage error, not a connection failure. */
    static final class PostgresUrl implements ITypeConverter<String> {

        @Override
        public String convert(String text) {
            if (!text.startsWith("jdbc:postgresql:")) {
                throw new TypeConversionException("'" + text + "' is not a PostgreSQL JDBC URL; write e.g. "
                        + "jdbc:postgresql://node-a:5432/ifdb");
            }
            return text;
        }

        /** The URL as output shows it: without its password= parameter, which the terminal or a log would keep. */
        static String shown(String url) {
            return url.replaceAll("(?i)([?&])password=[^&]*(&|$)", "$1").replaceAll("[?&]$", "");
        }
    }
}
