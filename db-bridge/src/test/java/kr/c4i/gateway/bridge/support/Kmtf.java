package kr.c4i.gateway.bridge.support;

import kr.c4i.gateway.kmtf.text.KmtfMessageBuilder;

/** Valid KMTF text for tests. */
public final class Kmtf {

    public static String message(String type, int serial) {
        return new KmtfMessageBuilder().classification("UNCLASSIFIED").msgid(type, "1CORPS", Integer.toString(serial))
                .set("DTG", "211430ZNOV2026").freeText("NARR", "NO CONTACT / ROUTE CLEAR " + serial).build().render();
    }

    private Kmtf() {
    }
}
