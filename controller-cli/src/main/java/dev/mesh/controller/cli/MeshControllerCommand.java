package dev.mesh.controller.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The top command, {@code mesh-controller}: it does nothing itself and requires a subcommand. */
@Command(name = "mesh-controller",
        mixinStandardHelpOptions = true,
        versionProvider = JarVersion.class,
        description = "The controller of a machine mesh: manifests, composition, planning, verbs.",
        synopsisSubcommandLabel = "COMMAND",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:success",
            "1:a problem was found, or the command failed",
            "2:the command line is wrong",
            "3:a command that calls the running controller could not reach it"})
final class MeshControllerCommand implements Runnable {

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing a command: try 'mesh-controller serve --dev' to run "
                + "a controller and 'mesh-controller status' to ask it, 'mesh-controller validate FILE' or "
                + "'mesh-controller plan --mesh FILE' offline, or 'mesh-controller --help' for every command");
    }
}
