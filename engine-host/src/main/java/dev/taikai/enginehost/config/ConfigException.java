package dev.taikai.enginehost.config;

/** A configuration (engine catalog, tournament file, command-line entry) that cannot be used; the message names the file, line and field where there is one. */
public class ConfigException extends Exception {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }
}
