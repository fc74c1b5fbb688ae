/** Planning (docs/design.md section 6): plans from what nodes acknowledged to their new declarations, incremental re-planning, the text form, acknowledged declarations read back. */
package dev.mesh.controller.core.plan;
