package kr.c4i.gateway.e2e;

/** The contract over point-to-point JMS: a persistent Artemis broker per node, store-and-forward bridges. */
class JmsEndToEndIT extends EndToEndContract {

    @Override
    String transport() {
        return "jms";
    }
}
