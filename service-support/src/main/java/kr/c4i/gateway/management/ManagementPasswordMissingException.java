package kr.c4i.gateway.management;

/** No {@code spring.security.user.password}: {@link ManagementFailureAnalyzer} tells the operator what to set. */
public final class ManagementPasswordMissingException extends RuntimeException {

    private final String user;

    public ManagementPasswordMissingException(String user) {
        super("No password is set for the management endpoints' user '" + user + "' (spring.security.user.password)");
        this.user = user;
    }

    public String user() {
        return user;
    }
}
