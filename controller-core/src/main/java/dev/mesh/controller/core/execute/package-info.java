/**
 * Carrying out the plan (docs/design.md sections 6 and 8): which node's new declaration may be delivered
 * now, and which builds are to be sent ({@link Rollout}); one round of doing it, recorded in the
 * inventory ({@link Execution}); and the thread that runs a round after every change while this
 * controller is active ({@link Executor}).
 */
package dev.mesh.controller.core.execute;
