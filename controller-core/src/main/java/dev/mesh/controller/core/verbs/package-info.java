/** The twelve verbs (docs/design.md section 7) as tools with JSON Schemas, handled against core's ports. */
package dev.mesh.controller.core.verbs;
