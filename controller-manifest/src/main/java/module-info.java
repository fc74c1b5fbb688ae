/**
 * The manifest module: the model of a module's manifest and of a mesh file, the strict parser
 * with located problems, the template grammar and the substitution engine. Embeddable: it depends
 * on Jackson's streaming parser and nothing else, and never logs. Only
 * {@code dev.mesh.controller.manifest} is API; {@code ….internal} is not exported.
 */
module dev.mesh.controller.manifest {
    requires tools.jackson.core;

    exports dev.mesh.controller.manifest;
}
