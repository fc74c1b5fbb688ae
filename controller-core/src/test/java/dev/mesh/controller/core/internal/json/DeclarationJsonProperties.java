package dev.mesh.controller.core.internal.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Composition;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Secret;
import dev.mesh.controller.core.Tool;
import dev.mesh.controller.core.compose.Composer;
import dev.mesh.controller.core.compose.ComposerTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.quicktheories.api.Pair;
import org.quicktheories.api.Tuple4;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * {@link DeclarationJson} writes exactly what {@link CanonicalJson} writes for a declaration, both
 * as plain bytes (printable ASCII) and through Jackson's generator (any other string): over random
 * declarations (strings with escapes, control and non-ASCII characters, or printable ASCII only;
 * maps sorted or not; preparations present or not), with the plain bytes of their shared parts
 * given as fragments or not, and over the example mesh's declarations.
 */
class DeclarationJsonProperties {

    @Test
    void bytes_anyDeclaration_equalCanonicalJson() {
        qt().withExamples(500).forAll(declarations()).checkAssert(declaration -> {
            String canonical = CanonicalJson.text(declaration);

            assertThat(text(DeclarationJson.bytes(declaration))).isEqualTo(canonical);
            assertThat(text(DeclarationJson.generatedBytes(declaration))).isEqualTo(canonical);
            byte[] plain = DeclarationJson.plainBytes(declaration);
            if (plain != null) {
                assertThat(text(plain)).isEqualTo(canonical);
            }
            assertThat(DeclarationJson.digest(declaration)).isEqualTo(CanonicalJson.digest(declaration));
        });
    }

    @Test
    void digest_withFragmentsOfItsParts_equalsCanonicalJson() {
        qt().withExamples(300).forAll(declarations()).checkAssert(declaration -> {
            Map<Object, byte[]> fragments = new IdentityHashMap<>();
            declaration.accounts().forEach(account -> fragments.put(account, DeclarationJson.fragment(account)));
            declaration.directories()
                    .forEach(directory -> fragments.put(directory, DeclarationJson.fragment(directory)));
            declaration.tools().forEach(tool -> fragments.put(tool, DeclarationJson.fragment(tool)));
            for (Declaration.Process process : declaration.processes()) {
                fragments.put(process.artifact(), DeclarationJson.fragment(process.artifact()));
                fragments.put(process.env(), DeclarationJson.fragment(process.env()));
            }

            assertThat(DeclarationJson.digest(declaration, CanonicalOut.plain(CanonicalJson.sha256(), null),
                    fragments)).isEqualTo(CanonicalJson.digest(declaration));
        });
    }

    @Test
    void plainBytes_printableAsciiDeclaration_writtenWithoutJacksonAndEqualCanonicalJson() {
        qt().withExamples(300).forAll(declarations(plainStrings())).checkAssert(declaration -> {
            byte[] plain = DeclarationJson.plainBytes(declaration);

            assertThat(plain).isNotNull();
            assertThat(text(plain)).isEqualTo(CanonicalJson.text(declaration));
            assertThat(DeclarationJson.digest(declaration)).isEqualTo(CanonicalJson.digest(declaration));
        });
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Test
    void bytes_exampleMeshDeclarations_equalCanonicalJson() throws IOException {
        Composition composition = Composer.compose(ComposerTest.exampleMesh());

        assertThat(composition.declarations()).isNotEmpty();
        for (Declaration declaration : composition.declarations()) {
            assertThat(DeclarationJson.plainBytes(declaration)).isEqualTo(CanonicalJson.bytes(declaration));
            assertThat(DeclarationJson.generatedBytes(declaration)).isEqualTo(CanonicalJson.bytes(declaration));
            assertThat(declaration.revision()).isEqualTo(CanonicalJson.digest(declaration.withRevision("")));
        }
    }

    /** @return declarations of any strings or of printable ASCII only, half and half */
    private static Gen<Declaration> declarations() {
        return Generate.oneOf(declarations(strings()), declarations(plainStrings()));
    }

    /**
     * @param s the strings of every part
     * @return declarations with up to 3 (containers: 2) of each part, some artifact versions, digests and
     *     locations null, some processes without a preparation
     */
    private static Gen<Declaration> declarations(Gen<String> s) {
        Gen<List<String>> list = upTo(3, s);
        Gen<Map<String, String>> env = maps(s);
        Gen<Declaration.Account> accounts = s.zip(s, s, Declaration.Account::new);
        Gen<Declaration.Directory> directories = s.zip(s, s, s, s, Declaration.Directory::new);
        Gen<Declaration.Secret> secrets = s.zip(s, s, s, s, Declaration.Secret::new);
        Gen<Declaration.Access> accesses = s.zip(s, s, Declaration.Access::new);
        Gen<Declaration.Artifact> artifacts = s.zip(orNull(20, s), s, s, Tuple4::of).zip(orNull(50, s), orNull(50, s),
                (a, sha256, location) -> new Declaration.Artifact(a._1, a._2, a._3, a._4, sha256, location));
        Gen<Declaration.Preparation> preparations = orNull(40, list.zip(s, env, Declaration.Preparation::new));
        Gen<Declaration.Process> processes = s.zip(s, artifacts, list, Tuple4::of).zip(
                s.zip(env, list, booleans().all(), Tuple4::of), preparations,
                (a, b, prepare) -> new Declaration.Process(a._1, a._2, a._3, a._4, b._1, b._2, b._3, b._4, prepare));
        Gen<Declaration.Mount> mounts = s.zip(s, s, Declaration.Mount::new);
        Gen<Declaration.Container> containers = s.zip(s, s, s, Tuple4::of).zip(env, upTo(3, mounts), s, list,
                (a, e, m, network, run) -> new Declaration.Container(a._1, a._2, a._3, a._4, e, m, network, run));
        Gen<Declaration.Tool> tools = s.zip(s, Declaration.Tool::new);
        Gen<Tuple4<String, String, List<Declaration.Account>, List<Declaration.Directory>>> head = s.zip(s,
                upTo(3, accounts), upTo(3, directories), Tuple4::of);
        Gen<Tuple4<List<Declaration.Secret>, List<Declaration.Access>, List<Declaration.Process>,
                List<Declaration.Container>>> body = upTo(3, secrets).zip(upTo(3, accesses), upTo(3, processes),
                upTo(2, containers), Tuple4::of);
        return head.zip(body, list, upTo(3, tools), (h, b, seats, t) -> new Declaration(h._1, h._2, h._3, h._4, b._1,
                b._2, b._3, b._4, seats, t));
    }

    /** @return strings with escapes, control and non-ASCII characters, surrogate pairs and line separators */
    private static Gen<String> strings() {
        Gen<Character> chars = Generate.frequency(List.of(Pair.of(9, Generate.characters('\u0000', '\u02ff')),
                Pair.of(1, arbitrary().pick('€', '\u2028', '\u2029', '\uffff'))));
        return Generate.oneOf(upTo(8, chars).map(DeclarationJsonProperties::string),
                arbitrary().pick("", "a\"b\\c", "/var/lib/mesh", "😀", "x😀y", "\u007f", "${seat:x:1}"));
    }

    /** Printable ASCII, the only strings written without Jackson, with the two it must not write as they are. */
    private static Gen<String> plainStrings() {
        List<Character> plain = IntStream.rangeClosed(' ', '~').filter(c -> c != '"' && c != '\\')
                .mapToObj(c -> (char) c).toList();
        return upTo(12, arbitrary().pick(plain)).map(DeclarationJsonProperties::string);
    }

    /** Sorted, insertion-ordered or hashed: the writer must sort what is not sorted. */
    private static Gen<Map<String, String>> maps(Gen<String> strings) {
        return upTo(4, strings.zip(strings, Pair::of)).zip(integers().between(0, 2), (entries, kind) -> {
            Map<String, String> map = switch (kind) {
                case 0 -> new TreeMap<>();
                case 1 -> new LinkedHashMap<>();
                default -> new HashMap<>();
            };
            entries.forEach(entry -> map.putIfAbsent(entry._1, entry._2));
            return map;
        });
    }

    /** @return lists of 0 to {@code size} {@code elements} */
    private static <T> Gen<List<T>> upTo(int size, Gen<T> elements) {
        return lists().of(elements).ofSizeBetween(0, size);
    }

    /** @return {@code values}, or null in {@code percent} of the cases */
    private static <T> Gen<T> orNull(int percent, Gen<T> values) {
        Gen<T> none = Generate.constant(() -> null);
        return Generate.frequency(List.of(Pair.of(100 - percent, values), Pair.of(percent, none)));
    }

    private static String string(List<Character> chars) {
        return chars.stream().map(String::valueOf).collect(Collectors.joining());
    }
}
