package dev.mesh.controller.manifest;

import dev.mesh.controller.manifest.GeneratedJson.Value;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the parser properties draw from: bytes and JSON-like text, Unicode encodings, the valid
 * manifests, and lists of mutations. Manifest-shaped JSON trees come from {@link ManifestShapes}.
 */
final class ManifestArbitraries {

    private ManifestArbitraries() {
    }

    static Arbitrary<byte[]> bytes() {
        Arbitrary<byte[]> any = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
        Arbitrary<byte[]> tail = Arbitraries.bytes().array(byte[].class).ofMaxSize(8);
        Arbitrary<byte[]> prefix = Arbitraries.of(new byte[0], new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                new byte[] {(byte) 0xFE, (byte) 0xFF}, new byte[] {(byte) 0xFF, (byte) 0xFE},
                new byte[] {0, 0, (byte) 0xFE, (byte) 0xFF}, new byte[] {0, 0, 0}, new byte[] {0});
        Arbitrary<byte[]> prefixed = Combinators.combine(prefix, jsonLikeText().map(
                t -> t.getBytes(StandardCharsets.UTF_8)), tail).as((p, body, rest) -> concat(p, body, rest));
        return Arbitraries.frequencyOf(List.of(Tuple.of(1, any), Tuple.of(2, prefixed)));
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    static Arbitrary<String> jsonLikeText() {
        Arbitrary<String> piece = Arbitraries.of("{", "}", "[", "]", ",", ":", "\"", "\\", "\\u00e9", "\\ud800", "\n",
                " ", "0", "-1", "1e999", "1.5", "true", "false", "null", "\"module\"", "\"version\"", "\"resources\"",
                "\"type\"", "\"run\"", "\"env\"", "\"${\"", "\"${dir:x}\"", "\"mesh\"", "é", "\u0000", "//", "/*", "NaN",
                "\"module\":\"m\",\"version\":\"1\"");
        return piece.list().ofMaxSize(60).map(pieces -> String.join("", pieces));
    }

    static Arbitrary<Charset> encodings() {
        return Arbitraries.of(StandardCharsets.UTF_8, StandardCharsets.UTF_16BE, StandardCharsets.UTF_16LE,
                StandardCharsets.UTF_16, Charset.forName("UTF-32BE"), Charset.forName("UTF-32LE"));
    }

    static Arbitrary<Value> validManifest() {
        return Arbitraries.of(validManifests());
    }

    static Arbitrary<List<Mutation>> mutations() {
        Arbitrary<Integer> seed = Arbitraries.integers().between(0, 100_000);
        return Combinators.combine(Arbitraries.of(Mutation.Kind.class), seed, seed).as(Mutation::new)
                .list().ofMinSize(1).ofMaxSize(3);
    }

    /**
     * The valid manifests: the shared corpus (corpus/valid) when present, and the parser
     * properties' own (properties/valid). Files that do not parse are left out; at least one must.
     */
    static List<Value> validManifests() {
        List<Value> manifests = new ArrayList<>();
        for (String dir : List.of("corpus/valid", "properties/valid")) {
            URL url = ManifestArbitraries.class.getClassLoader().getResource(dir);
            if (url == null) {
                continue;
            }
            try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                    byte[] bytes = Files.readAllBytes(file);
                    if (ParserProperties.outcome(bytes).stream().noneMatch(Problem::isError)) {
                        manifests.add(Value.from(JsonMapper.shared().readTree(bytes)));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (URISyntaxException e) {
                throw new IllegalStateException(e);
            }
        }
        if (manifests.isEmpty()) {
            throw new IllegalStateException("no valid manifest under corpus/valid or properties/valid");
        }
        return manifests;
    }
}
