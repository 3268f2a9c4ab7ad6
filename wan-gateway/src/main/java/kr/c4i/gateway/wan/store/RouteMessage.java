package kr.c4i.gateway.wan.store;

/** One copy's identity in the store: the route it goes to next ({@link Route#key()}) and its message id. */
record RouteMessage(String route, String messageId) {

    static RouteMessage of(Copy copy) {
        return new RouteMessage(copy.route().key(), copy.messageId());
    }
}
