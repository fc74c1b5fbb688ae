package dev.mesh.controller.manifest;

import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.mesh.controller.manifest.GeneratedJson.Value;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the parser properties draw from: bytes and JSON-like text, Unicode encodings, the valid
 * manifests, and lists of mutations. Manifest-shaped JSON trees come from {@link ManifestShapes}.
 *
 * <p>Every generator here is built from QuickTheories' own ({@code Generate}, {@code SourceDSL},
 * {@code map}, {@code zip}), so a failing example shrinks: lists get shorter, picks move to the first
 * of their choices, numbers towards their lower bound. The last section holds the few combinators
 * QuickTheories lacks (a list of generators drawn together, one of a list, strings over an alphabet),
 * written with those same parts so that they shrink too.
 */
final class ManifestGens {

    private ManifestGens() {
    }

    /** Any bytes up to 300, or, twice as often, a Unicode signature (or some zeros), JSON-like text and a few bytes. */
    static Gen<byte[]> bytes() {
        Gen<byte[]> prefix = Generate.pick(List.of(new byte[0], new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                new byte[] {(byte) 0xFE, (byte) 0xFF}, new byte[] {(byte) 0xFF, (byte) 0xFE},
                new byte[] {0, 0, (byte) 0xFE, (byte) 0xFF}, new byte[] {0, 0, 0}, new byte[] {0}));
        Gen<byte[]> prefixed = prefix.zip(jsonLikeText().map(t -> t.getBytes(StandardCharsets.UTF_8)), anyBytes(8),
                ManifestGens::concat);
        return Generate.frequency(Pair.of(1, anyBytes(300)), Pair.of(2, prefixed)).describedAs(Arrays::toString);
    }

    /** Arrays of up to {@code maxSize} bytes, each of any value; shown as their values when a property fails. */
    static Gen<byte[]> anyBytes(int maxSize) {
        return Generate.byteArrays(integers().between(0, maxSize),
                Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0)).describedAs(Arrays::toString);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    /** Up to 60 pieces of JSON syntax, manifest keys and awkward characters, joined. */
    static Gen<String> jsonLikeText() {
        Gen<String> piece = Generate.pick(List.of("{", "}", "[", "]", ",", ":", "\"", "\\", "\\u00e9", "\\ud800",
                "\n", " ", "0", "-1", "1e999", "1.5", "true", "false", "null", "\"module\"", "\"version\"",
                "\"resources\"", "\"type\"", "\"run\"", "\"env\"", "\"${\"", "\"${dir:x}\"", "\"mesh\"", "é", "\u0000",
                "//", "/*", "NaN", "\"module\":\"m\",\"version\":\"1\""));
        return lists().of(piece).ofSizeBetween(0, 60).map(pieces -> String.join("", pieces));
    }

    /** The Unicode encodings RFC 8259 readers meet: UTF-8, and UTF-16 and UTF-32 of both byte orders. */
    static Gen<Charset> encodings() {
        return Generate.pick(List.of(StandardCharsets.UTF_8, StandardCharsets.UTF_16BE, StandardCharsets.UTF_16LE,
                StandardCharsets.UTF_16, Charset.forName("UTF-32BE"), Charset.forName("UTF-32LE")));
    }

    /** One of {@link #validManifests()}. */
    static Gen<Value> validManifest() {
        return Generate.pick(validManifests());
    }

    /** One to three mutations of any kind, each with its own choice of where and how. */
    static Gen<List<Mutation>> mutations() {
        Gen<Integer> seed = integers().between(0, 100_000);
        return lists().of(Generate.enumValues(Mutation.Kind.class).zip(seed, seed, Mutation::new)).ofSizeBetween(1, 3);
    }

    /**
     * The valid manifests: the shared corpus (corpus/valid) when present, and the parser
     * properties' own (properties/valid). Files that do not parse are left out; at least one must.
     */
    static List<Value> validManifests() {
        List<Value> manifests = new ArrayList<>();
        for (String dir : List.of("corpus/valid", "properties/valid")) {
            URL url = ManifestGens.class.getClassLoader().getResource(dir);
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

    // --- combinators QuickTheories lacks ---------------------------------------------------------

    /** A list with one value from each generator, in order; it shrinks where each of them does. */
    static <T> Gen<List<T>> allOf(List<Gen<T>> gens) {
        Gen<List<T>> all = Generate.constant(List.of());
        for (Gen<T> gen : gens) {
            all = all.zip(gen, (values, value) -> Stream.concat(values.stream(), Stream.of(value)).toList());
        }
        return all;
    }

    /** A value of one of the generators, all equally likely; it shrinks towards the first. */
    static <T> Gen<T> oneOf(List<Gen<T>> gens) {
        return Generate.frequency(gens.stream().map(gen -> Pair.of(1, gen)).toList());
    }

    /**
     * Strings of {@code minLength} to {@code maxLength} characters of {@code alphabet}; they shrink
     * to shorter ones, of its first character.
     */
    static Gen<String> stringsOf(String alphabet, int minLength, int maxLength) {
        List<Character> characters = alphabet.chars().mapToObj(c -> (char) c).toList();
        return lists().of(Generate.pick(characters)).ofSizeBetween(minLength, maxLength)
                .map(chars -> chars.stream().map(String::valueOf).collect(Collectors.joining()));
    }
}
