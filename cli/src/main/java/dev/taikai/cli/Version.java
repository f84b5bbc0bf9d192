package dev.taikai.cli;

import picocli.CommandLine;

/** Version from the jar manifest when packaged, "development build" otherwise. */
final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = Taikai.class.getPackage().getImplementationVersion();
        return new String[] {"taikai " + (version == null ? "development build" : version)};
    }
}
