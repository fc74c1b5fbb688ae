/**
 * Simulated mesh hosts and builders that speak docs/design.md section 8's wire contract with plain
 * {@code amqp-client} and {@code jnats}, as a host written in another language would: {@link
 * dev.mesh.controller.simhost.SimulatedHost} (facts on NATS, declarations in from {@code mesh-host.<node>},
 * reports out to {@code mesh-controller.reports}), {@link dev.mesh.controller.simhost.SimulatedBuilder}
 * (orders in from {@code mesh.builds}, build reports out) and {@link dev.mesh.controller.simhost.Lab}, a
 * {@code main} that starts a few of them. For tests, benchmarks and a local lab; not part of the product
 * bundle (docs/simhost.md).
 */
package dev.mesh.controller.simhost;
