package dev.mesh.controller.launcher;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** This controller's id as the mesh sees it (docs/design.md section 8): {@code host:pid}. */
final class Instance {

    private Instance() {
    }

    /** @return {@code host:pid}, the host being this machine's name ({@code localhost} when it has none) */
    static String id() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "localhost";
        }
        return host + ":" + ProcessHandle.current().pid();
    }
}
