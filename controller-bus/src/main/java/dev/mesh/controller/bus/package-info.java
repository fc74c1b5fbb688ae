/**
 * The controller on the broker (docs/design.md section 8, docs/bus.md): the connection
 * ({@link dev.mesh.controller.bus.Broker}, from {@link dev.mesh.controller.bus.BrokerSettings}: plain
 * AMQP on loopback only, else TLS pinned to one CA), the
 * RabbitMQ topology ({@link dev.mesh.controller.bus.Topology}) and the verbs' broker transport
 * ({@link dev.mesh.controller.bus.BrokerVerbs}), which hands each request to {@code controller-mcp}'s
 * dispatcher; the hosts' and builders' reports in ({@link dev.mesh.controller.bus.ReportsIn}); the hosts'
 * facts in from NATS ({@link dev.mesh.controller.bus.FactsIn}, from {@link
 * dev.mesh.controller.bus.NatsSettings}). Failures are {@link dev.mesh.controller.bus.BusException}s.
 */
package dev.mesh.controller.bus;
