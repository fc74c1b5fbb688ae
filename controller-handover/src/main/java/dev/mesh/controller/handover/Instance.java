package dev.mesh.controller.handover;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * This controller's id as the mesh sees it (docs/design.md section 8), {@code host:pid}: the plan lock's holder,
 * and the {@code from} of the handover event that tells who took over from it.
 */
public final class Instance {

    private Instance() {
    }

    /** @return {@code host:pid}, the host being this machine's name ({@code localhost} when it has none) */
    public static String id() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "localhost";
        }
        return host + ":" + ProcessHandle.current().pid();
    }
}
