/** Composition (docs/design.md section 5): every node's declaration from the manifests assigned to it, and where each templated value came from. */
package dev.mesh.controller.core.compose;
