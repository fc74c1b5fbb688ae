package dev.mesh.controller.store;

import dev.mesh.controller.core.Node;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A controller in a process of its own, for {@link EmbeddedStoreLockIT}: opens the embedded store
 * on the state directory given (the server unpacked under the second argument), records node {@code alpha}, prints {@code ready}, and keeps the
 * store open until its standard input ends.
 */
final class EmbeddedStoreHolder {

    private EmbeddedStoreHolder() {}

    public static void main(String[] args) throws IOException {
        try (EmbeddedStore store = EmbeddedStore.start(Path.of(args[0]), Path.of(args[1]))) {
            new PgInventory(store.endpoint(Database.INVENTORY).dataSource())
                    .report(new Node("alpha", "10.0.0.1", "debian-12"));
            System.out.println("ready");
            System.out.flush();
            while (System.in.read() >= 0) {
                // held until the test closes this process's input, or kills it
            }
        }
    }
}
