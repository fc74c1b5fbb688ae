package dev.mesh.controller.cli;

import dev.mesh.controller.core.Node;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * This machine as the development controller registers it: node {@code local}, its address and
 * its system as the mesh names systems ({@code ID-VERSION_ID} of {@code /etc/os-release}, e.g.
 * {@code debian-12}).
 */
public final class LocalNode {

    /** The name of this machine's node in dev mode. */
    public static final String NAME = "local";

    private LocalNode() {
    }

    /** @return this machine as node {@code local} */
    public static Node detect() {
        return new Node(NAME, address(), system(Path.of("/etc/os-release")));
    }

    /**
     * @param osRelease an os-release file (see os-release(5))
     * @return {@code ID-VERSION_ID}, {@code ID} without a version, or {@code linux} when the file
     *     is missing or names no {@code ID}
     * @throws CommandException when the file exists but cannot be read
     */
    static String system(Path osRelease) {
        List<String> lines;
        try {
            lines = Files.readAllLines(osRelease, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return "linux";
        } catch (IOException e) {
            throw new CommandException("cannot read " + osRelease + " to tell this machine's system: " + e.getMessage(), e);
        }
        Map<String, String> fields = new HashMap<>();
        for (String line : lines) {
            int equals = line.indexOf('=');
            if (equals > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, equals).strip(), unquote(line.substring(equals + 1).strip()));
            }
        }
        String id = fields.getOrDefault("ID", "").toLowerCase(Locale.ROOT);
        String version = fields.getOrDefault("VERSION_ID", "");
        if (id.isEmpty()) {
            return "linux";
        }
        return version.isEmpty() ? id : id + "-" + version;
    }

    /** The first IPv4 address of an interface that is up and not loopback; else the loopback address. */
    private static String address() {
        try {
            for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!network.isUp() || network.isLoopback()) {
                    continue;
                }
                for (InetAddress address : Collections.list(network.getInetAddresses())) {
                    if (address instanceof Inet4Address && !address.isLinkLocalAddress()) {
                        return address.getHostAddress();
                    }
                }
            }
        } catch (SocketException e) {
            // No interface can be listed: this machine is reached on loopback only.
        }
        return InetAddress.getLoopbackAddress().getHostAddress();
    }

    private static String unquote(String value) {
        if (value.length() >= 2 && (value.startsWith("\"") && value.endsWith("\"")
                || value.startsWith("'") && value.endsWith("'"))) {
            return value.substring(1, value.length() - 1);
        }
        return value;
    }
}
