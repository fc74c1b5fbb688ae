package dev.mesh.controller.core.compose.internal;

import dev.mesh.controller.core.BuildOrder;
import dev.mesh.controller.core.Built;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Tool;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.Resource;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The parts of a module's declaration that are the same on every node it is assigned to: its
 * accounts, its directories with their paths in the layout, its processes' artifacts and its
 * tools. Made once per manifest and layout ({@link NodeComposer}) and
 * looked up by resource, known by identity.
 *
 * <p>Immutable once made.
 */
final class ModuleParts {

    /**
     * A value and where it was declared, to name both sides of a conflict.
     *
     * @param value the value
     * @param module the module that declares it
     * @param location where
     */
    record Sourced<T>(T value, String module, Location location) {
    }

    private final Map<Resource.User, Sourced<Declaration.Account>> accounts = new IdentityHashMap<>();
    private final Map<Resource.Directory, Sourced<Declaration.Directory>> directories = new IdentityHashMap<>();
    private final Map<Resource.Process, Declaration.Artifact> artifacts = new IdentityHashMap<>();
    private final List<Declaration.Tool> tools;

    private ModuleParts(Manifest manifest, Layout layout, Map<String, Built> built) {
        String module = manifest.module();
        tools = manifest.tools().stream().map(tool -> new Declaration.Tool(module, tool)).toList();
        for (Resource resource : manifest.resources()) {
            switch (resource) {
                case Resource.User user -> accounts.put(user, new Sourced<>(new Declaration.Account(user.name(),
                        orEmpty(user.shell()), orEmpty(user.home())), module, user.location()));
                case Resource.Directory directory -> directories.put(directory, new Sourced<>(
                        new Declaration.Directory(module, directory.id(), layout.pathOf(module, directory),
                                directory.mode(), directory.owner()), module, directory.location()));
                case Resource.Process process -> artifacts.put(process, manifest.artifact(process.artifact())
                        .map(a -> pinned(Declaration.Artifact.unbuilt(module, manifest.version(), a.name(),
                                a.system()), built))
                        .orElseThrow(() -> new IllegalStateException("a parsed manifest names only declared artifacts")));
                case Resource.Container container -> {
                    // Its mounts' sources are templates, resolved on each node (NodeDeclaration).
                }
            }
        }
    }

    /**
     * @return the parts of {@code manifest}'s module, with directory paths in {@code layout} and each
     *     artifact pinned to its build in {@code built}, when it is there
     */
    static ModuleParts of(Manifest manifest, Layout layout, Map<String, Built> built) {
        return new ModuleParts(manifest, layout, built);
    }

    /** The artifact with the digest and location of its build, when built; as it is otherwise. */
    static Declaration.Artifact pinned(Declaration.Artifact artifact, Map<String, Built> built) {
        Built build = built.get(BuildOrder.id(artifact.module(), artifact.version(), artifact.name()));
        return build == null ? artifact : artifact.built(build.sha256(), build.location());
    }

    /** @return the account of a {@code user} resource of the module */
    Sourced<Declaration.Account> account(Resource.User user) {
        return accounts.get(user);
    }

    /** @return the directory of a {@code directory} resource of the module */
    Sourced<Declaration.Directory> directory(Resource.Directory directory) {
        return directories.get(directory);
    }

    /** @return the artifact a {@code process} resource of the module runs */
    Declaration.Artifact artifact(Resource.Process process) {
        return artifacts.get(process);
    }

    /** @return the module's tools */
    List<Declaration.Tool> tools() {
        return tools;
    }

    /** Gives {@code action} every value these parts share between declarations. */
    void forEachValue(Consumer<Object> action) {
        accounts.values().forEach(account -> action.accept(account.value()));
        directories.values().forEach(directory -> action.accept(directory.value()));
        artifacts.values().forEach(action);
        tools.forEach(action);
    }

    private static String orEmpty(String value) {
        return value == null ? "" : value;
    }
}
