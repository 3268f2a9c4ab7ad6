package kr.c4i.gateway.kmtf.catalogue;

/** A message type was asked for by id but the loaded catalogue does not define it. */
public final class UnknownMessageTypeException extends RuntimeException {

    private final String id;

    UnknownMessageTypeException(String id, int catalogueSize) {
        super("Unknown KMTF message type '" + id + "'; the catalogue defines " + catalogueSize
                + " types (see KmtfCatalogue.ids())");
        this.id = id;
    }

    /** The id that was asked for. */
    public String id() {
        return this.id;
    }
}
