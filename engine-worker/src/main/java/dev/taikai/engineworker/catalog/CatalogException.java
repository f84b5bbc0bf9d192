package dev.taikai.engineworker.catalog;

/** A catalog that cannot be used; the message names the file, line and field. */
public final class CatalogException extends Exception {
    private static final long serialVersionUID = 1L;

    public CatalogException(String message) {
        super(message);
    }
}
