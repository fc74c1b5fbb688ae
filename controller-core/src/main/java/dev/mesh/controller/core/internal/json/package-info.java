/** Canonical JSON writers for declarations and digests, without data binding. Not API. */
package dev.mesh.controller.core.internal.json;
