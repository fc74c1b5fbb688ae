package dev.mesh.controller.cli;

import picocli.CommandLine.IVersionProvider;

/**
 * The version printed by {@code --version} and announced by the controller: the
 * {@code Implementation-Version} of this module's jar (the bundle's jars are all of one version).
 * Stateless and thread-safe.
 */
public final class JarVersion implements IVersionProvider {

    /** For picocli, which makes one for each command that names it as its {@code versionProvider}. */
    public JarVersion() {
    }

    /** @return {@code mesh-controller VERSION} */
    @Override
    public String[] getVersion() {
        return new String[] {"mesh-controller " + version()};
    }

    /** @return the jar's version, or {@code (development build)} outside a jar */
    public static String version() {
        String version = JarVersion.class.getPackage().getImplementationVersion();
        return version == null ? "(development build)" : version;
    }
}
