package kr.c4i.gateway.tools.embedded;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * The embedded default's passwords (databases, brokers, management endpoints), made afresh where no one set one.
 */
final class Secrets {

    private static final SecureRandom RANDOM = new SecureRandom();

    private Secrets() {
    }

    /** 256 random bits, URL-safe Base64: fine in a URL, a libpq connection string, a command line or curl's -u. */
    static String random() {
        byte[] bits = new byte[32];
        RANDOM.nextBytes(bits);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bits);
    }
}
