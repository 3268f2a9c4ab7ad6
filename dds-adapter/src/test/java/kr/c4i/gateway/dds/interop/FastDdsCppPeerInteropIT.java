package kr.c4i.gateway.dds.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Wire interop between the Java side (the project's DDS API, Cyclone via FFM) and a C++ program on eProsima Fast
 * DDS 2.9 with fastddsgen-generated type support, both directions, RELIABLE and BEST_EFFORT, over UDPv4 only (no
 * shared memory). The peer is built from {@code src/test/interop/fastdds} and the project's IDL on first use.
 */
@Timeout(90)
class FastDdsCppPeerInteropIT {

    private static final InteropPeer PEER = InteropPeer.FAST_DDS_CPP;

    @Test
    void javaPublishesReliableAndFastDdsCppPeerReceivesEverySampleInOrder() throws Exception {
        InteropExchange.javaPublishesAndPeerReceives(PEER, true);
    }

    @Test
    void javaPublishesBestEffortAndFastDdsCppPeerReceivesNinetyPercentWithoutDuplicates() throws Exception {
        InteropExchange.javaPublishesAndPeerReceives(PEER, false);
    }

    @Test
    void fastDdsCppPeerPublishesReliableAndJavaReceivesEverySampleInOrder() throws Exception {
        InteropExchange.peerPublishesAndJavaReceives(PEER, true);
    }

    @Test
    void fastDdsCppPeerPublishesBestEffortAndJavaReceivesNinetyPercentWithoutDuplicates() throws Exception {
        InteropExchange.peerPublishesAndJavaReceives(PEER, false);
    }
}
