/**
 * The controller's model and its ports (docs/design.md section 2): the mesh ({@link
 * dev.mesh.controller.core.Mesh}, {@link dev.mesh.controller.core.Node}, {@link
 * dev.mesh.controller.core.Assignment}), what composition and planning produce ({@link
 * dev.mesh.controller.core.Declaration}, {@link dev.mesh.controller.core.Composition}, {@link
 * dev.mesh.controller.core.Plan}, {@link dev.mesh.controller.core.Seating}), and the interfaces core
 * reaches storage and transports through ({@link dev.mesh.controller.core.Inventory}, {@link
 * dev.mesh.controller.core.PlanLock}, {@link dev.mesh.controller.core.Identity}, …), which other
 * modules implement. Nothing here imports the packages below it.
 */
package dev.mesh.controller.core;
