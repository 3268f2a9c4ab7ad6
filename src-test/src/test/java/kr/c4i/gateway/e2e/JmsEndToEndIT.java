package kr.c4i.gateway.e2e;

import kr.c4i.gateway.core.transport.TransportKind;

/** The contract over point-to-point JMS: a persistent Artemis broker per node, store-and-forward bridges. */
class JmsEndToEndIT extends EndToEndContract {

    @Override
    TransportKind transport() {
        return TransportKind.JMS;
    }
}
