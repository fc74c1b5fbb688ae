/**
 * The controller's core, offline: the mesh model and the ports (the root package), composition
 * ({@code compose}), planning ({@code plan}), carrying it out ({@code execute}), the verbs ({@code verbs}) and
 * the reading of settings from the environment ({@code settings}). Not exported: the
 * implementations behind them ({@code ….internal}) and the in-memory ports for tests and
 * development ({@code memory}).
 */
module dev.mesh.controller.core {
    requires transitive dev.mesh.controller.manifest;
    requires transitive tools.jackson.databind;

    exports dev.mesh.controller.core;
    exports dev.mesh.controller.core.compose;
    exports dev.mesh.controller.core.execute;
    exports dev.mesh.controller.core.plan;
    exports dev.mesh.controller.core.settings;
    exports dev.mesh.controller.core.verbs;
}
