package kr.c4i.gateway.jms;

import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * The JMS priority (0..9) that carries a message's precedence through the brokers. The catalogue knows no
 * transport, so the mapping lives here, next to the send that sets {@code JMSPriority}. ROUTINE is 4, the JMS
 * default, which leaves room below it for administrative traffic.
 */
final class JmsPriority {

    private JmsPriority() {
    }

    static int of(Precedence precedence) {
        return switch (precedence) {
            case FLASH -> 9;
            case IMMEDIATE -> 7;
            case PRIORITY -> 5;
            case ROUTINE -> 4;
        };
    }
}
