package kr.c4i.gateway.tools;

import java.io.PrintWriter;

import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * How every tool reports invalid input: what was wrong, a suggestion for a mistyped option, and where the options
 * are, no usage dump; {@link ExitCode#USAGE}.
 */
public final class UsageError implements IParameterExceptionHandler {

    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine command = ex.getCommandLine();
        PrintWriter err = command.getErr();
        err.println(command.getColorScheme().errorText(ex.getMessage()));
        UnmatchedArgumentException.printSuggestions(ex, err);
        err.printf("See '%s --help'.%n", command.getCommandSpec().qualifiedName());
        err.flush();
        return ExitCode.USAGE.code();
    }
}
