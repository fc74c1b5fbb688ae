package dev.mesh.controller.bench;

/** The floor of the start benchmarks ({@link StartBench}): the least a Java program does. */
public final class HelloWorld {

    private HelloWorld() {
    }

    /**
     * Prints one line.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        System.out.println("hello, world");
    }
}
