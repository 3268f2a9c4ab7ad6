package kr.c4i.gateway.dds;

import java.time.Duration;
import java.util.List;

import kr.c4i.gateway.dds.transport.DdsTransportSettings;

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
        return ParticipantSettings.builder().domainId(domainId).networkInterface("127.0.0.1").multicast(false)
                .peers(List.of("127.0.0.1")).build();
    }

    /** Transport settings on {@link #loopback()}, with the service's default write timeout and backlog. */
    public static DdsTransportSettings.Builder transport() {
        return transport(domainId());
    }

    public static DdsTransportSettings.Builder transport(int domainId) {
        return DdsTransportSettings.builder(Duration.ofSeconds(10), 4096).participant(loopback(domainId));
    }
}
