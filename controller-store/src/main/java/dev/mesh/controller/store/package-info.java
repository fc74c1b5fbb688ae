/**
 * The controller's PostgreSQL store (docs/design.md section 9): the {@code inventory}, {@code identity}
 * and {@code licences} databases, their Flyway migrations ({@link Migrations}), connections to them
 * ({@link Endpoint}, {@link ConnectionPool}), the implementations of core's ports on them
 * ({@link PgInventory}, {@link PgPlanLock}), the plan records written under the lock's fencing
 * epoch ({@link PlanRecords}), and the embedded default for {@code serve --dev}
 * ({@link EmbeddedStore}). Every query is jOOQ, generated at build time from the migrations; the
 * generated classes live in {@code internal} and never appear in this package's signatures.
 */
package dev.mesh.controller.store;
