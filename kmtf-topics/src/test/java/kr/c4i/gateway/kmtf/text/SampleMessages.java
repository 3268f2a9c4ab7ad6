package kr.c4i.gateway.kmtf.text;

/** Realistic KMTF messages in the layouts operators write by hand. */
final class SampleMessages {

    static final String SITREP = """
            UNCLASSIFIED
            MSGID/SITREP/1CORPS/0042/NOV//
            REF/A/OPORD/1CORPS/201200ZNOV2026//
            DTG/211430ZNOV2026//

            PERID/211200ZNOV2026/211800ZNOV2026//
            OWNSIT/UNIT:1ST INF DIV/LOC:52SCG1234567890/STATUS:GREEN//
            NARR/ENEMY ACTIVITY LOW ALONG MSR 1/2. NO CONTACT.
            PATROLS 1/A AND 2/B RETURNED AT 1530Z; 적 활동 없음//
            """;

    static final String CALLFIRE = """
            SECRET//REL TO USA, KOR
            MSGID/CALLFIRE/FDC1-5FA/0117//
            OBSID/OBS:A21/FDC:B35//
            TGTLOC/GRID:52SCG12345678/ALT:120M//
            TGTDESC/TYPE:INF PLT/SIZE:30/ACT:DUG IN//
            MOF/ADJ:FIRE FOR EFFECT/AMMO:HE/FUZE:PD/RNDS:3//
            DTG/DTG:221005ZNOV2026//
            RMKS/DANGER CLOSE 600M / REQUEST SMOKE//
            """;

    static final String LOGSITREP_MULTILINE = "MSGID/LOGSITREP/2SUSTBDE/0007//\r\n"
            + "SUPPLY/CL:III/QTY:45000L/\r\n"
            + "   CL:V/QTY:120T/\r\n"
            + "   CL:I/QTY:-//\r\n"
            + "AMPN/RESUPPLY BY\r\n  CONVOY 7//\r\n";

    static final String GENADMIN = """
            MSGID/GENADMIN/ROKA HQ/2026-118//
            SUBJ/EXERCISE ULCHI FREEDOM SHIELD//
            GENTEXT/REMARKS/ALL UNITS REPORT READINESS BY 251200ZNOV2026 VIA J3/J6 CHANNELS.//
            """;

    private SampleMessages() {
    }
}
