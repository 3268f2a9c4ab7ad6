package kr.c4i.gateway.scenarios.net;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * What the emulated network needs from this machine: root (network namespaces, qdiscs, nftables) and the
 * tools. Each problem is a sentence that says what to do.
 */
public final class EnvironmentCheck {

    /** Tools and the Debian package that has each. */
    static final List<List<String>> TOOLS = List.of(List.of("ip", "iproute2"), List.of("tc", "iproute2"),
            List.of("ss", "iproute2"), List.of("nft", "nftables"), List.of("ethtool", "ethtool"),
            List.of("sysctl", "procps"), List.of("curl", "curl"));

    private EnvironmentCheck() {
    }

    /** Problems on this machine; empty when the harness can run. */
    public static List<String> problems() {
        return problems(effectiveUid(), EnvironmentCheck::onPath);
    }

    static List<String> problems(Optional<Integer> uid, Predicate<String> toolPresent) {
        List<String> problems = new ArrayList<>();
        if (uid.isEmpty() || uid.get() != 0) {
            problems.add("not running as root (effective uid " + uid.map(String::valueOf).orElse("unknown")
                    + "): network namespaces, qdiscs and nftables need root; run with sudo");
        }
        List<String> packages = new ArrayList<>();
        for (List<String> tool : TOOLS) {
            if (!toolPresent.test(tool.get(0)) && !packages.contains(tool.get(1))) {
                problems.add("'" + tool.get(0) + "' not found on PATH");
                packages.add(tool.get(1));
            }
        }
        if (!packages.isEmpty()) {
            problems.add("install the missing tools: apt-get install -y " + String.join(" ", packages));
        }
        return problems;
    }

    /** The effective uid from {@code /proc/self/status}. */
    public static Optional<Integer> effectiveUid() {
        try {
            return parseEffectiveUid(Files.readString(Path.of("/proc/self/status")));
        }
        catch (IOException ex) {
            return Optional.empty();
        }
    }

    static Optional<Integer> parseEffectiveUid(String status) {
        return status.lines().filter(l -> l.startsWith("Uid:")).findFirst().map(l -> l.substring(4).trim().split("\\s+"))
                .filter(f -> f.length >= 2).map(f -> Integer.parseInt(f[1]));
    }

    private static boolean onPath(String tool) {
        String path = System.getenv().getOrDefault("PATH", "") + File.pathSeparator + "/usr/sbin:/sbin";
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
