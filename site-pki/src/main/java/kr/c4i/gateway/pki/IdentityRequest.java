package kr.c4i.gateway.pki;

import java.net.InetAddress;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What a site authority puts into an identity it issues: the holder's name (a node or gateway id, which becomes the
 * certificate's common name) and the host names and addresses it is reached at, which TLS clients check.
 *
 * @param name the node or gateway id
 * @param hostNames DNS names of the holder's host
 * @param addresses IP addresses of the holder's host
 */
public record IdentityRequest(String name, List<String> hostNames, List<InetAddress> addresses) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    public IdentityRequest {
        requireName(name);
        hostNames = List.copyOf(hostNames);
        addresses = List.copyOf(addresses);
    }

    /** Returns a holder's name if it is one: it names a certificate's subject and a directory. */
    public static String requireName(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("identity name '" + name
                    + "' must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
        return name;
    }

    /** An identity for a holder on this host only: {@code localhost} and {@code 127.0.0.1}. */
    public static IdentityRequest loopback(String name) {
        return new IdentityRequest(name, List.of("localhost"), List.of(InetAddress.getLoopbackAddress()));
    }
}
