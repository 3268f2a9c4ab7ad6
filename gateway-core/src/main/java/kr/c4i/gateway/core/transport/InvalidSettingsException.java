package kr.c4i.gateway.core.transport;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Settings that a transport refuses, each problem with the name of its setting, so that whoever built the settings
 * from their own configuration (the bridge, from {@code gateway.*}) can say which of its properties is wrong.
 */
public final class InvalidSettingsException extends IllegalArgumentException {

    private final List<Problem> problems;

    /**
     * @param prefix what the message starts with before the problems, e.g. {@code "Invalid JMS transport settings: "}
     * @param problems at least one
     */
    public InvalidSettingsException(String prefix, List<Problem> problems) {
        super(prefix + problems.stream().map(Problem::message).collect(Collectors.joining("; ")));
        this.problems = List.copyOf(problems);
    }

    /** One problem, its message naming the setting first. */
    public static InvalidSettingsException of(String setting, String message) {
        return new InvalidSettingsException("", List.of(new Problem(setting, message)));
    }

    public List<Problem> problems() {
        return problems;
    }

    /**
     * @param setting the setting's name in the transport's settings, dotted for nested ones, e.g. {@code domainId}
     *        or {@code embedded.port}
     * @param message what is wrong, starting with the setting's name
     */
    public record Problem(String setting, String message) {
    }
}
