package kr.c4i.gateway.core.transport;

import java.util.regex.Pattern;

/** Whether a configured address is an IPv4 multicast group, checked as text before any native library sees it. */
public final class Ipv4Multicast {

    /** One to three ASCII digits: other scripts' digits would parse, but no socket library takes them. */
    private static final Pattern OCTET = Pattern.compile("[0-9]{1,3}");

    private Ipv4Multicast() {
    }

    /** Four decimal octets of at most 255, the first 224 to 239: a literal group, never a name to resolve. */
    public static boolean isGroup(String text) {
        String[] octets = text.split("\\.", -1);
        if (octets.length != 4) {
            return false;
        }
        for (String octet : octets) {
            if (!OCTET.matcher(octet).matches() || Integer.parseInt(octet) > 255) {
                return false;
            }
        }
        int first = Integer.parseInt(octets[0]);
        return first >= 224 && first <= 239;
    }
}
