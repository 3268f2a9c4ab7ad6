package kr.c4i.gateway.tools.embedded;

import java.util.Objects;
import java.util.Optional;

import org.springframework.boot.context.properties.bind.BindException;

import kr.c4i.gateway.bridge.config.InvalidPropertiesException;
import kr.c4i.gateway.tools.Causes;
import kr.c4i.gateway.tools.ExitCode;
import kr.c4i.gateway.tools.MissingLibrary;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * How the commands that start nodes in this process ({@code demo}, {@code bench}, {@code soak}) report a
 * {@code gateway.*} property a node refused (set with {@code -D} or in the environment): one line naming it and why,
 * {@link ExitCode#USAGE}, as the service's own start reports it, not the Spring context's stack trace. A missing
 * native library goes to {@link MissingLibrary}; anything else to picocli's default handling.
 */
final class InvalidProperties implements IExecutionExceptionHandler {

    private final MissingLibrary missingLibrary = new MissingLibrary();

    /** The one line for a property refused somewhere in {@code failure}'s causes, if that is what failed. */
    static Optional<String> in(Throwable failure) {
        for (Throwable cause : Causes.of(failure)) {
            if (cause instanceof InvalidPropertiesException invalid) {
                return Optional.of(invalid.getMessage() + advice());
            }
            if (cause instanceof BindException bind) {
                return Optional.of("Invalid gateway properties under '" + bind.getName() + "': " + deepest(bind)
                        + advice());
            }
        }
        return Optional.empty();
    }

    /** The message of the innermost cause that has one: the property's own check, under Spring's binding. */
    private static String deepest(Throwable failure) {
        return Causes.of(failure).reversed().stream().map(Throwable::getMessage).filter(Objects::nonNull).findFirst()
                .orElse(failure.toString());
    }

    private static String advice() {
        return " (docs/configuration.md gives every property's range and default)";
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine command, ParseResult parseResult) throws Exception {
        Optional<String> invalid = in(ex);
        if (invalid.isEmpty()) {
            return missingLibrary.handleExecutionException(ex, command, parseResult);
        }
        command.getOut().flush();
        command.getErr().println(command.getColorScheme().errorText(invalid.get()));
        command.getErr().flush();
        return ExitCode.USAGE.code();
    }
}
