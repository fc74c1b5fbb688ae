/**
 * The {@code mesh-controller} commands that need no store: offline {@code validate},
 * {@code compose} and {@code plan}, the client of a running controller, and {@code mcp}.
 *
 * <p>The API is what the launcher needs: {@link dev.mesh.controller.cli.MeshCommands} (the command
 * line, to which it adds {@code serve} and {@code prepare}), {@link dev.mesh.controller.cli.Failures}
 * (the one renderer of failures into lines and exit codes), {@link dev.mesh.controller.cli.JarVersion},
 * and the failures it throws itself, {@link dev.mesh.controller.cli.ConfigException} and
 * {@link dev.mesh.controller.cli.CommandException}. Everything else is package-private.
 *
 * <p>Exit codes: {@code 0} success, {@code 1} a problem was found or the command failed, {@code 2}
 * the command line was wrong, {@code 3} no controller could be reached. Nothing here prints a
 * stack trace, and nothing reads the environment: it is given as a map.
 */
package dev.mesh.controller.cli;
import dev.mesh.controller.core.settings.ConfigException;
