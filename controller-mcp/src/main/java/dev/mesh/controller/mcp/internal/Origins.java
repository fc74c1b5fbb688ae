package dev.mesh.controller.mcp.internal;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/** Which browser origins may call the loopback server (DNS rebinding protection): loopback ones only. */
public final class Origins {

    private Origins() {
    }

    /**
     * @param origin the {@code Origin} header, or {@code null} when there is none (not a browser)
     * @return whether a request with it may be served
     */
    public static boolean allowed(String origin) {
        if (origin == null) {
            return true;
        }
        try {
            URI uri = new URI(origin.strip());
            String scheme = uri.getScheme();
            String host = uri.getHost();
            if (host == null || scheme == null
                    || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
                return false;
            }
            return isLoopbackName(host);
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /**
     * Decides on the name alone, without resolving it: a rebinding attack controls what a name resolves to.
     *
     * @param host a host name or a literal address (IPv6 in brackets or not)
     * @return whether it names this machine's loopback interface
     */
    public static boolean isLoopbackName(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        if (h.equals("localhost") || h.endsWith(".localhost") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1")) {
            return true;
        }
        String[] parts = h.split("\\.", -1);
        if (parts.length != 4 || !parts[0].equals("127")) {
            return false;
        }
        for (String part : parts) {
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(c -> c >= '0' && c <= '9')
                    || Integer.parseInt(part) > 255) {
                return false;
            }
        }
        return true;
    }
}
