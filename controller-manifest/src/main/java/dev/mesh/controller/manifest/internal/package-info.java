/**
 * Implementation of the manifest parser and template grammar. Not API: types here may change
 * without notice; use {@link dev.mesh.controller.manifest.Manifest} and
 * {@link dev.mesh.controller.manifest.Template}.
 */
package dev.mesh.controller.manifest.internal;
