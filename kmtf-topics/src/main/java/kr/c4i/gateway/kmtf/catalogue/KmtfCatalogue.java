package kr.c4i.gateway.kmtf.catalogue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * The KMTF message types this gateway knows, with the topic and QoS each is carried on. The set of types belongs
 * to the operator, not to the code: the shipped file is a default that {@link #load(Path)} replaces. Immutable and
 * thread-safe.
 */
public final class KmtfCatalogue {

    static final String DEFAULT_RESOURCE = "kr/c4i/gateway/kmtf/catalogue/kmtf-catalogue.csv";

    private static volatile @Nullable KmtfCatalogue shipped;

    private final List<MessageType> types;
    private final Map<String, MessageType> byId;
    private final Map<String, MessageType> byTopic;

    private KmtfCatalogue(List<MessageType> types) {
        this.types = List.copyOf(types);
        this.byId = index(types, MessageType::id);
        this.byTopic = index(types, MessageType::topicName);
    }

    /**
     * The catalogue shipped with this module (modelled on APP-11/USMTF structure; see the file's header).
     *
     * @throws CatalogueException if the shipped file is broken, which a build test prevents
     */
    public static KmtfCatalogue loadDefault() {
        KmtfCatalogue catalogue = shipped;
        if (catalogue == null) {
            catalogue = loadResource();
            shipped = catalogue;
        }
        return catalogue;
    }

    /**
     * Reads an operator's catalogue file (UTF-8 CSV with a header row; {@code #} lines are comments).
     *
     * @throws CatalogueException listing every problem in the file, or why it could not be read
     */
    public static KmtfCatalogue load(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        }
        catch (IOException | UncheckedIOException ex) {
            throw new CatalogueException(file.toString(), ex);
        }
        return new KmtfCatalogue(CatalogueReader.read(file.toString(), lines));
    }

    /** The type with this id, or empty. Ids are case-sensitive, as in MSGID. */
    public Optional<MessageType> find(String id) {
        return Optional.ofNullable(this.byId.get(id));
    }

    /**
     * The type with this id, for callers to whom an unknown id is a bug or a configuration error.
     *
     * @throws UnknownMessageTypeException if the catalogue does not define it
     */
    public MessageType require(String id) {
        MessageType type = this.byId.get(id);
        if (type == null) {
            throw new UnknownMessageTypeException(id, size());
        }
        return type;
    }

    /** The type published on this DDS topic, or empty; lets a reader map a topic back to its type. */
    public Optional<MessageType> findByTopic(String topicName) {
        return Optional.ofNullable(this.byTopic.get(topicName));
    }

    /** All types, in file order. */
    public List<MessageType> types() {
        return this.types;
    }

    public int size() {
        return this.types.size();
    }

    /** All ids, in file order. */
    public Set<String> ids() {
        return this.byId.keySet();
    }

    @Override
    public String toString() {
        return "KmtfCatalogue[" + size() + " types]";
    }

    private static Map<String, MessageType> index(List<MessageType> types, Function<MessageType, String> key) {
        return types.stream().collect(Collectors.collectingAndThen(
                Collectors.toMap(key, Function.identity(), (a, b) -> a, LinkedHashMap::new),
                Collections::unmodifiableMap));
    }

    private static KmtfCatalogue loadResource() {
        String source = "classpath:" + DEFAULT_RESOURCE;
        try (InputStream in = KmtfCatalogue.class.getClassLoader().getResourceAsStream(DEFAULT_RESOURCE)) {
            if (in == null) {
                throw new CatalogueException(source, new IOException("resource not found"));
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return new KmtfCatalogue(CatalogueReader.read(source, text.lines().toList()));
        }
        catch (IOException ex) {
            throw new CatalogueException(source, ex);
        }
    }
}
