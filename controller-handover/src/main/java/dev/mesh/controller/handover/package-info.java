/**
 * The life cycle of docs/design.md section 10 — standby → active → releasing → stopped — driven from
 * core's ports: {@link dev.mesh.controller.core.Consumers} (the broker's single-active consumer,
 * implemented by the bus) moves core's {@link dev.mesh.controller.core.Lifecycle} (and with it the
 * plan lock, implemented by the store). See docs/handover.md.
 */
package dev.mesh.controller.handover;
