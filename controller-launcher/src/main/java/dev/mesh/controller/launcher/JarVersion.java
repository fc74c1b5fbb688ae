package dev.mesh.controller.launcher;

import picocli.CommandLine.IVersionProvider;

/** The version printed by {@code --version}: the {@code Implementation-Version} of the launcher jar. */
final class JarVersion implements IVersionProvider {

    @Override
    public String[] getVersion() {
        return new String[] {"mesh-controller " + version()};
    }

    /** @return the launcher jar's version, or {@code (development build)} outside a jar */
    static String version() {
        String version = Main.class.getPackage().getImplementationVersion();
        return version == null ? "(development build)" : version;
    }
}
