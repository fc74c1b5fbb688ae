package dev.mesh.controller.manifest;

import java.util.Objects;

/**
 * The roots directory paths are made from: {@code <mesh root>/<id>} for place {@code mesh},
 * {@code <modules root>/<module>/<id>} for place {@code module}.
 *
 * @param meshRoot absolute path, default {@code /var/lib/mesh}
 * @param modulesRoot absolute path, default {@code /var/lib/mesh/modules}
 */
public record Layout(String meshRoot, String modulesRoot) {

    /** The roots used when a mesh names none. */
    public static final Layout DEFAULT = new Layout("/var/lib/mesh", "/var/lib/mesh/modules");

    /**
     * Checks that both roots are absolute and strips a trailing slash.
     *
     * @throws IllegalArgumentException if a root is not absolute
     */
    public Layout {
        meshRoot = absolute("meshRoot", meshRoot);
        modulesRoot = absolute("modulesRoot", modulesRoot);
    }

    /**
     * @param module the module that declares the directory
     * @param directory the directory resource
     * @return the directory's absolute path
     */
    public String pathOf(String module, Resource.Directory directory) {
        return switch (directory.place()) {
            case MESH -> meshRoot + "/" + directory.id();
            case MODULE -> modulesRoot + "/" + module + "/" + directory.id();
        };
    }

    private static String absolute(String name, String root) {
        Objects.requireNonNull(root, name);
        if (!root.startsWith("/")) {
            throw new IllegalArgumentException(name + " must be an absolute path, got \"" + root + "\"");
        }
        return root.length() > 1 && root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
    }
}
