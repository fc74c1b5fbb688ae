/**
 * The {@code mesh-controller} process: {@link dev.mesh.controller.launcher.Main}, which adds the
 * commands that need the store ({@code prepare}, {@code serve}, {@code grant}, {@code revoke},
 * {@code principals}) to the command line of
 * {@code dev.mesh.controller.cli}, the configuration from the environment, the wiring of the
 * development controller, and the process bundle. Failures become exit codes and text through
 * {@code dev.mesh.controller.cli.Failures} only; nothing here prints a stack trace.
 */
package dev.mesh.controller.launcher;
