package kr.c4i.gateway.e2e;

/**
 * The contract over DDS: a topic per KMTF type on real Cyclone DDS participants, receipts back to
 * the sender, unreceipted RELIABLE messages resent (also after the sender itself was killed).
 */
class DdsEndToEndTest extends EndToEndContract {

    @Override
    String transport() {
        return "dds";
    }
}
