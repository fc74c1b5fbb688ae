/**
 * Settings read from the environment: {@link dev.mesh.controller.core.settings.Variables} reads one variable
 * at a time and collects every problem, each a line that names the variable, the file and the fix, until
 * {@link dev.mesh.controller.core.settings.ConfigException} reports them all at once, before anything
 * connects. Each part reads its own variables through it (the store's databases, the broker and the bus,
 * the handover's timings); the launcher puts them together for each command.
 */
package dev.mesh.controller.core.settings;
