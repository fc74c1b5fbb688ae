package dev.mesh.controller.core.plan;

import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.internal.json.DeclarationJson;
import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.ManifestException;
import dev.mesh.controller.manifest.Problem;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.InjectableValues;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a node's declaration back, as {@code compose --json} prints it: the form in which a node's
 * last acknowledged declaration is kept for {@code plan --applied}. Strict: an unknown or missing
 * field, a value of the wrong type, or a {@code revision} that is not the digest of the content
 * (the file was edited by hand) is a located problem.
 *
 * <p>Thread-safe.
 */
public final class DeclarationReader {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .injectableValues(laterParts())
            .build();

    private static final String FORM = "a declaration must be exactly as `mesh-controller compose --json` prints it";

    private DeclarationReader() {
    }

    /** What the parts a declaration of an earlier format lacks are read as (see {@link Declaration.Artifact}). */
    private static InjectableValues laterParts() {
        InjectableValues.Std absent = new InjectableValues.Std().addValue(Declaration.LATER_FLAG, false);
        Declaration.LATER_PARTS.forEach(id -> absent.addValue(id, null));
        return absent;
    }

    /**
     * @param json the declaration's bytes
     * @param file the name problems give the file
     * @return the declaration
     * @throws ManifestException with the problem that stopped it
     */
    public static Declaration read(byte[] json, String file) {
        Declaration declaration;
        try {
            declaration = MAPPER.readValue(json, Declaration.class);
        } catch (StreamReadException e) {
            throw failure("json-syntax", "the file is not valid JSON: " + e.getOriginalMessage(), file, e);
        } catch (JacksonException e) {
            throw failure("invalid-declaration", reason(e) + "; " + FORM, file, e);
        }
        if (declaration == null) {
            throw failure("invalid-declaration", "the file holds null; " + FORM, file, null);
        }
        String digest = DeclarationJson.digest(declaration.withRevision(""));
        if (!digest.equals(declaration.revision())) {
            throw new ManifestException(List.of(Problem.error("revision-mismatch", "the declaration's revision "
                    + declaration.revision() + " is not the digest of its content (" + digest + "): it was changed "
                    + "after it was composed; restore it from `mesh-controller compose --json`",
                    new Location(file, "/revision", 0, 0))));
        }
        return declaration;
    }

    private static String reason(JacksonException e) {
        return switch (e) {
            case UnrecognizedPropertyException unknown -> "unknown field \"" + unknown.getPropertyName() + "\"";
            case MismatchedInputException mismatched when mismatched.getOriginalMessage().startsWith("Missing")
                    -> "a required field is missing";
            case MismatchedInputException mismatched -> "a value has the wrong type";
            // The records' own checks: a required value is null.
            default -> "a required value is null or the value does not fit a declaration";
        };
    }

    private static ManifestException failure(String code, String message, String file, JacksonException e) {
        TokenStreamLocation at = e == null ? null : e.getLocation();
        int line = at == null || at.getLineNr() < 1 ? 0 : at.getLineNr();
        int column = at == null || at.getColumnNr() < 1 ? 0 : at.getColumnNr();
        return new ManifestException(List.of(Problem.error(code, message,
                new Location(file, e == null ? "" : pointer(e.getPath()), line, column))));
    }

    private static String pointer(List<JacksonException.Reference> path) {
        String pointer = "";
        for (JacksonException.Reference reference : path) {
            if (reference.getPropertyName() != null) {
                pointer = Location.child(pointer, reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                pointer = pointer + "/" + reference.getIndex();
            }
        }
        return pointer;
    }
}
