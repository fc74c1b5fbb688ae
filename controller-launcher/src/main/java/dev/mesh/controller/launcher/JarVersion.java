package dev.mesh.controller.launcher;

import picocli.CommandLine.IVersionProvider;

/** The version printed by {@code --version}: the {@code Implementation-Version} of the launcher jar. */
final class JarVersion implements IVersionProvider {

    @Override
    public String[] getVersion() {
        String version = Main.class.getPackage().getImplementationVersion();
        return new String[] {"mesh-controller " + (version == null ? "(development build)" : version)};
    }
}
