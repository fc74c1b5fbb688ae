/**
 * The {@code mesh-controller} command: its command line, and the one place where failures become
 * exit codes and text for the user ({@link dev.mesh.controller.launcher.Main}).
 *
 * <p>Exit codes: {@code 0} success, {@code 1} a problem was found or the command failed, {@code 2}
 * the command line was wrong. Nothing here prints a stack trace.
 */
package dev.mesh.controller.launcher;
