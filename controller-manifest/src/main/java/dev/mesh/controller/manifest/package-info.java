/**
 * Mesh module manifests: the model (docs/design.md section 3), the strict parser with located
 * problems, and the substitution of {@code ${…}} references (section 4).
 *
 * <p>Entry points: {@link dev.mesh.controller.manifest.Manifest#read(java.nio.file.Path)} and
 * {@link dev.mesh.controller.manifest.Manifest#parse(byte[], String)}, which return a manifest or
 * throw a {@link dev.mesh.controller.manifest.ManifestException} carrying every
 * {@link dev.mesh.controller.manifest.Problem}; and
 * {@link dev.mesh.controller.manifest.Substitution}, which resolves templates against caller-supplied
 * {@link dev.mesh.controller.manifest.Bindings}. Everything here is immutable and thread-safe. This
 * package depends on Jackson's streaming parser and nothing else, and never logs.
 */
package dev.mesh.controller.manifest;
