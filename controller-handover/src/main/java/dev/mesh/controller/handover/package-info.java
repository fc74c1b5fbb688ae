/**
 * The handover protocol of docs/design.md section 10, in one place: the life cycle's state machine
 * ({@link dev.mesh.controller.handover.ControllerLifecycle}: standby → active → releasing → stopped, the one
 * truth of the role), what moves it ({@link dev.mesh.controller.handover.Handover}, from what core's
 * {@link dev.mesh.controller.core.Consumers} tell; {@link dev.mesh.controller.handover.LeaseRenewal};
 * {@link dev.mesh.controller.handover.KeepActive} for a controller alone), and every timing with the rules
 * between them ({@link dev.mesh.controller.handover.HandoverSettings}). The rest of the controller sees the life
 * cycle as core's read-only {@link dev.mesh.controller.core.Lifecycle}; the store implements the plan lock and the
 * bus the consumers. See docs/handover.md.
 */
package dev.mesh.controller.handover;
