package kr.c4i.gateway.tools.pki;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine;

import kr.c4i.gateway.pki.IdentityRequest;

/**
 * A holder on the command line: {@code NAME} (reached on this host: localhost and 127.0.0.1) or
 * {@code NAME=HOST[,HOST...]}, each host a DNS name or an IP address literal.
 */
final class HolderSpec implements CommandLine.ITypeConverter<IdentityRequest> {

    @Override
    public IdentityRequest convert(String value) {
        int equals = value.indexOf('=');
        if (equals < 0) {
            return IdentityRequest.loopback(value);
        }
        List<String> names = new ArrayList<>();
        List<InetAddress> addresses = new ArrayList<>();
        for (String host : value.substring(equals + 1).split(",")) {
            String trimmed = host.strip();
            if (trimmed.isEmpty()) {
                throw new CommandLine.TypeConversionException("empty host in '" + value + "'");
            }
            if (trimmed.matches("[0-9.]+") || trimmed.contains(":")) {
                addresses.add(literal(trimmed, value));
            }
            else {
                names.add(trimmed);
            }
        }
        return new IdentityRequest(value.substring(0, equals), names, addresses);
    }

    private static InetAddress literal(String address, String value) {
        try {
            return InetAddress.ofLiteral(address);
        }
        catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException("'" + address + "' in '" + value
                    + "' is not an IP address");
        }
    }
}
