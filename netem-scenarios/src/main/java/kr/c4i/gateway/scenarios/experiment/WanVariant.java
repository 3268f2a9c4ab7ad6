package kr.c4i.gateway.scenarios.experiment;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.random.RandomGenerator;

import kr.c4i.gateway.scenarios.node.KmtfBodies;

/**
 * What a {@code wan} cell's messages say and whether the WAN link compresses them: each cell can be run all three
 * ways. Today's bodies repeat one filler text, which the link's Deflate shrinks to a few per cent, so their msg/s
 * stand far above what real traffic gets; the mix varies as real traffic does; with compression off the figures are
 * the link's own efficiency, what it makes of bytes it cannot shrink.
 */
public enum WanVariant {

    /** Today's bodies: one filler text in every message ({@link KmtfBodies#of}), frames compressed. */
    FILLER("filler", "today's bodies, one filler text in every message, frames compressed"),

    /** Varied report texts ({@link KmtfBodies#mix}), frames compressed. */
    MIX("mix", "varied report texts (fourteen originators, DTGs within the hour, serials, narratives of report words, "
            + "grid references, times and counts; seeded), frames compressed"),

    /** The varied mix, the gateways sending their frames uncompressed. */
    UNCOMPRESSED("uncompressed", "the same varied texts, the gateways sending their frames uncompressed "
            + "(`gateway.wan.compress-frames=false`): the link's own efficiency");

    /** What {@code --wan-variants} takes for all three. */
    private static final String ALL = "all";

    private final String label;
    private final String description;

    WanVariant(String label, String description) {
        this.label = label;
        this.description = description;
    }

    /** The name on the command line and in cell keys. */
    public String label() {
        return label;
    }

    /** Its bodies and compression in words, as the report explains it. */
    public String description() {
        return description;
    }

    /** Whether the gateways compress their frames. */
    public boolean compressed() {
        return this != UNCOMPRESSED;
    }

    /**
     * A cell's key with this variant, e.g. {@code 10% 2 Mbit/s, mix}. Today's bodies keep the key they always had,
     * so runs made before variants existed still render, compare and pool with new ones.
     */
    public String key(String cellKey) {
        return this == FILLER ? cellKey : cellKey + ", " + label;
    }

    /** {@code count} message texts of the type and size; the mix carries on drawing from {@code random}. */
    List<byte[]> bodies(String type, int size, int count, RandomGenerator random) {
        return this == FILLER ? KmtfBodies.of(type, size, count) : KmtfBodies.mix(type, size, count, random);
    }

    /** {@code filler}, {@code mix}, {@code uncompressed}, or {@code all} for the three in that order. */
    public static List<WanVariant> parse(String text) {
        String name = text.strip().toLowerCase(Locale.ROOT);
        if (name.equals(ALL)) {
            return List.of(values());
        }
        for (WanVariant variant : values()) {
            if (variant.label.equals(name)) {
                return List.of(variant);
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a wan variant; use "
                + String.join(", ", Arrays.stream(values()).map(WanVariant::label).toList()) + " or " + ALL);
    }
}
