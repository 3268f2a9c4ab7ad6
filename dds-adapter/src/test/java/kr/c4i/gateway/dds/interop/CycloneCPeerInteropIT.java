package kr.c4i.gateway.dds.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Wire interop between the Java side (the project's DDS API, Cyclone via FFM, descriptors built in Java without
 * type information) and a C program on Cyclone DDS's C API with idlc-generated type support (with type
 * information), both directions, RELIABLE and BEST_EFFORT. The peer is built from {@code src/test/interop/cyclone}
 * and the project's IDL on first use.
 */
@Timeout(90)
class CycloneCPeerInteropIT {

    private static final InteropPeer PEER = InteropPeer.CYCLONE_C;

    @Test
    void javaPublishesReliableAndCycloneCPeerReceivesEverySampleInOrder() throws Exception {
        InteropExchange.javaPublishesAndPeerReceives(PEER, true);
    }

    @Test
    void javaPublishesBestEffortAndCycloneCPeerReceivesNinetyPercentWithoutDuplicates() throws Exception {
        InteropExchange.javaPublishesAndPeerReceives(PEER, false);
    }

    @Test
    void cycloneCPeerPublishesReliableAndJavaReceivesEverySampleInOrder() throws Exception {
        InteropExchange.peerPublishesAndJavaReceives(PEER, true);
    }

    @Test
    void cycloneCPeerPublishesBestEffortAndJavaReceivesNinetyPercentWithoutDuplicates() throws Exception {
        InteropExchange.peerPublishesAndJavaReceives(PEER, false);
    }
}
