package kr.c4i.gateway.dds;

import java.util.List;

/**
 * Test participants stay on loopback: this machine's {@code lo} has no multicast, so discovery goes by unicast to
 * 127.0.0.1. The domain id is derived from the process id, so concurrent builds on one host rarely meet.
 */
public final class TestNetwork {

    private TestNetwork() {
    }

    public static int domainId() {
        return 1 + (int) (ProcessHandle.current().pid() % 200);
    }

    public static ParticipantSettings loopback() {
        return loopback(domainId());
    }

    public static ParticipantSettings loopback(int domainId) {
        return ParticipantSettings.defaults().withDomainId(domainId).withNetworkInterface("127.0.0.1")
                .withMulticast(false).withPeers(List.of("127.0.0.1"));
    }
}
