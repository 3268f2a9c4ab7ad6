package kr.c4i.gateway.jdbc;

/** A process started on a database that belongs to another node or site ({@link DatabaseOwner}). */
public final class DatabaseOwnedElsewhereException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    DatabaseOwnedElsewhereException(String message) {
        super(message);
    }
}
