package dev.mesh.controller.core.internal.json;

import static org.assertj.core.api.Assertions.assertThat;

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
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * {@link DeclarationJson} writes exactly what {@link CanonicalJson} writes for a declaration, both
 * as plain bytes (printable ASCII) and through Jackson's generator (any other string): over random
 * declarations (strings with escapes, control and non-ASCII characters, or printable ASCII only;
 * maps sorted or not; preparations present or not), with the plain bytes of their shared parts
 * given as fragments or not, and over the example mesh's declarations.
 */
class DeclarationJsonProperties {

    @Property(tries = 500)
    void bytes_anyDeclaration_equalCanonicalJson(@ForAll("declarations") Declaration declaration) {
        String canonical = CanonicalJson.text(declaration);

        assertThat(text(DeclarationJson.bytes(declaration))).isEqualTo(canonical);
        assertThat(text(DeclarationJson.generatedBytes(declaration))).isEqualTo(canonical);
        byte[] plain = DeclarationJson.plainBytes(declaration);
        if (plain != null) {
            assertThat(text(plain)).isEqualTo(canonical);
        }
        assertThat(DeclarationJson.digest(declaration)).isEqualTo(CanonicalJson.digest(declaration));
    }

    @Property(tries = 300)
    void digest_withFragmentsOfItsParts_equalsCanonicalJson(@ForAll("declarations") Declaration declaration) {
        Map<Object, byte[]> fragments = new IdentityHashMap<>();
        declaration.accounts().forEach(account -> fragments.put(account, DeclarationJson.fragment(account)));
        declaration.directories().forEach(directory -> fragments.put(directory, DeclarationJson.fragment(directory)));
        declaration.tools().forEach(tool -> fragments.put(tool, DeclarationJson.fragment(tool)));
        for (Declaration.Process process : declaration.processes()) {
            fragments.put(process.artifact(), DeclarationJson.fragment(process.artifact()));
            fragments.put(process.env(), DeclarationJson.fragment(process.env()));
        }

        assertThat(DeclarationJson.digest(declaration, CanonicalOut.plain(CanonicalJson.sha256(), null), fragments))
                .isEqualTo(CanonicalJson.digest(declaration));
    }

    @Property(tries = 300)
    void plainBytes_printableAsciiDeclaration_writtenWithoutJacksonAndEqualCanonicalJson(
            @ForAll("plainDeclarations") Declaration declaration) {
        byte[] plain = DeclarationJson.plainBytes(declaration);

        assertThat(plain).isNotNull();
        assertThat(text(plain)).isEqualTo(CanonicalJson.text(declaration));
        assertThat(DeclarationJson.digest(declaration)).isEqualTo(CanonicalJson.digest(declaration));
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

    @Provide
    Arbitrary<Declaration> declarations() {
        return Arbitraries.oneOf(declarations(strings()), declarations(plainStrings()));
    }

    @Provide
    Arbitrary<Declaration> plainDeclarations() {
        return declarations(plainStrings());
    }

    private static Arbitrary<Declaration> declarations(Arbitrary<String> s) {
        Arbitrary<List<String>> list = s.list().ofMaxSize(3);
        Arbitrary<Map<String, String>> env = maps(s);
        Arbitrary<Declaration.Account> accounts = Combinators.combine(s, s, s).as(Declaration.Account::new);
        Arbitrary<Declaration.Directory> directories = Combinators.combine(s, s, s, s, s)
                .as(Declaration.Directory::new);
        Arbitrary<Declaration.Secret> secrets = Combinators.combine(s, s, s, s, s).as(Declaration.Secret::new);
        Arbitrary<Declaration.Access> accesses = Combinators.combine(s, s, s).as(Declaration.Access::new);
        Arbitrary<Declaration.Artifact> artifacts = Combinators.combine(s, s.injectNull(0.2), s, s,
                s.injectNull(0.5), s.injectNull(0.5)).as(Declaration.Artifact::new);
        Arbitrary<Declaration.Preparation> preparations = Combinators.combine(list, s, env)
                .as(Declaration.Preparation::new).injectNull(0.4);
        Arbitrary<Declaration.Process> processes = Combinators.combine(s, s, artifacts, list, s, env, list,
                Arbitraries.of(true, false)).as((m, n, a, r, u, e, rep, o) -> new Declaration.Process(m, n, a, r, u,
                e, rep, o, null));
        processes = Combinators.combine(processes, preparations).as((p, prep) -> new Declaration.Process(p.module(),
                p.name(), p.artifact(), p.run(), p.user(), p.env(), p.replaces(), p.overlap(), prep));
        Arbitrary<Declaration.Mount> mounts = Combinators.combine(s, s, s).as(Declaration.Mount::new);
        Arbitrary<Declaration.Container> containers = Combinators.combine(s, s, s, s, env, mounts.list().ofMaxSize(3),
                s, list).as(Declaration.Container::new);
        Arbitrary<Declaration.Tool> tools = Combinators.combine(s, s).as(Declaration.Tool::new);
        Arbitrary<Declaration> head = Combinators.combine(s, s, accounts.list().ofMaxSize(3),
                directories.list().ofMaxSize(3), secrets.list().ofMaxSize(3), accesses.list().ofMaxSize(3),
                processes.list().ofMaxSize(3), containers.list().ofMaxSize(2))
                .as((node, revision, a, d, se, ac, p, c) -> new Declaration(node, revision, a, d, se, ac, p, c,
                        List.of(), List.of()));
        return Combinators.combine(head, list, tools.list().ofMaxSize(3))
                .as((d, seats, t) -> new Declaration(d.node(), d.revision(), d.accounts(), d.directories(), d.secrets(),
                        d.accesses(), d.processes(), d.containers(), seats, t));
    }

    private static Arbitrary<String> strings() {
        return Arbitraries.oneOf(
                Arbitraries.strings().withCharRange('\u0000', '\u02ff').withChars("€\u2028\u2029\uffff").ofMaxLength(8),
                Arbitraries.of("", "a\"b\\c", "/var/lib/mesh", "😀", "x😀y", "\u007f", "${seat:x:1}"));
    }

    /** Printable ASCII, the only strings written without Jackson, with the two it must not write as they are. */
    private static Arbitrary<String> plainStrings() {
        return Arbitraries.strings().withCharRange(' ', '~').excludeChars('"', '\\').ofMaxLength(12);
    }

    /** Sorted, insertion-ordered or hashed: the writer must sort what is not sorted. */
    private static Arbitrary<Map<String, String>> maps(Arbitrary<String> strings) {
        return Combinators.combine(Arbitraries.maps(strings, strings).ofMaxSize(4), Arbitraries.integers().between(0, 2))
                .as((map, kind) -> switch (kind) {
                    case 0 -> new TreeMap<>(map);
                    case 1 -> new LinkedHashMap<>(map);
                    default -> new HashMap<>(map);
                });
    }
}
