package kr.c4i.gateway.wan.frame;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.text.KmtfMessageBuilder;

/**
 * The preset dictionary of KMTF text that DATA frames are compressed with, dictionary id {@value #ID}. It is the
 * checked-in resource {@code kmtf.dict}, made by {@link #generate} from the default catalogue's message shapes: the
 * words of the types' titles, each type's MSGID opening, then the classification lines and a skeleton message (MSGID,
 * DTG, NARR), last, where Deflate refers to them most cheaply. A new catalogue or a new recipe gets
 * a new id, never new bytes under this one: both ends must hold the same bytes for an id.
 */
public final class KmtfDictionary {

    /** The dictionary id of {@link #DEFLATE} in frames. */
    public static final int ID = 1;

    /** Classification lines as messages carry them, commonest last. */
    static final List<String> CLASSIFICATIONS = List.of("SECRET//REL TO USA, KOR", "SECRET", "CONFIDENTIAL",
            "UNCLASSIFIED");

    private static final String RESOURCE = "kmtf.dict";
    /**
     * Deflate hashes the whole dictionary into every frame's compressor, so its size costs speed on every frame: a
     * small dictionary that holds what every message has beats a large one (measured in docs/benchmarks.md).
     */
    private static final int MAX_BYTES = 8 * 1024;

    /** Deflate with the checked-in dictionary: what gateways send with. */
    public static final DeflateCompression DEFLATE = new DeflateCompression(ID, "deflate-6+kmtf.dict", load(), 6);

    private KmtfDictionary() {
    }

    /** The checked-in dictionary's bytes. */
    public static byte[] bytes() {
        return load();
    }

    private static byte[] load() {
        try (InputStream in = KmtfDictionary.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("Resource " + RESOURCE + " is missing beside "
                        + KmtfDictionary.class.getName());
            }
            return in.readAllBytes();
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot read " + RESOURCE, ex);
        }
    }

    /**
     * Representative KMTF messages of the catalogue: one per type and classification line, as a dictionary trainer
     * (such as zstd's) takes them.
     */
    public static List<byte[]> samples(KmtfCatalogue catalogue) {
        List<byte[]> samples = new ArrayList<>();
        for (MessageType type : catalogue.types()) {
            for (String classification : CLASSIFICATIONS) {
                samples.add(skeleton(type, classification).getBytes(StandardCharsets.UTF_8));
            }
        }
        return samples;
    }

    /** The dictionary's bytes for a catalogue, the same every time; {@code kmtf.dict} is this of the default one. */
    public static byte[] generate(KmtfCatalogue catalogue) {
        StringBuilder text = new StringBuilder();
        // Rarest first: the titles' words, once each in catalogue order; then each type's MSGID opening.
        Set<String> words = new LinkedHashSet<>();
        for (MessageType type : catalogue.types()) {
            words.addAll(Arrays.asList(type.title().toUpperCase(Locale.ROOT).split("[^A-Z0-9]+")));
        }
        words.remove("");
        text.append(String.join(" ", words)).append('\n');
        for (MessageType type : catalogue.types()) {
            text.append("MSGID/").append(type.id()).append('/');
        }
        text.append('\n');
        // Commonest last: classification lines and a whole skeleton message.
        for (String classification : CLASSIFICATIONS) {
            text.append(classification).append('\n');
        }
        text.append(skeleton(catalogue.types().getFirst(), CLASSIFICATIONS.getLast()));
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        return bytes.length <= MAX_BYTES ? bytes : Arrays.copyOfRange(bytes, bytes.length - MAX_BYTES, bytes.length);
    }

    private static String skeleton(MessageType type, String classification) {
        KmtfMessageBuilder builder = new KmtfMessageBuilder();
        if (!classification.isEmpty()) {
            builder.classification(classification);
        }
        return builder.msgid(type.id(), "UNIT", "1").set("DTG", "010000ZJAN2026")
                .freeText("NARR", type.title().toUpperCase(Locale.ROOT) + " / "
                        + type.category().name().replace('_', ' '))
                .build().render();
    }
}
