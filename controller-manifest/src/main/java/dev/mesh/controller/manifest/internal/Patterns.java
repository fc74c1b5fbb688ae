package dev.mesh.controller.manifest.internal;

import java.util.regex.Pattern;

/** The patterns of DESIGN.md section 3, each with the sentence that explains it in a message. */
final class Patterns {

    static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,62}");
    static final String NAME_RULE = "lower-case letters, digits and '-', starting with a letter, at most 63 characters";

    static final Pattern VERSION = Pattern.compile("[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}");
    static final String VERSION_RULE = "1 to 64 letters, digits, '.', '+', '_' or '-', starting with a letter or digit,"
            + " e.g. \"1.4.2\"";

    static final Pattern SLUG = Pattern.compile("[a-z][a-z0-9-]{0,31}");
    static final String SLUG_RULE = "lower-case letters, digits and '-', starting with a letter, at most 32 characters";

    static final Pattern SECRET = Pattern.compile("[a-z][a-z0-9-]*");
    static final String SECRET_RULE = "lower-case letters, digits and '-', starting with a letter";

    static final Pattern ACCOUNT = Pattern.compile("[a-z_][a-z0-9_-]{0,31}");
    static final String ACCOUNT_RULE = "a POSIX account name: lower-case letters, digits, '_' and '-', starting with a"
            + " letter or '_', at most 32 characters";

    static final Pattern MODE = Pattern.compile("[0-7]{3,4}");
    static final String MODE_RULE = "an octal permission string of 3 or 4 digits, e.g. \"0750\"";

    static final Pattern ENV = Pattern.compile("[A-Z_][A-Z0-9_]*");
    static final String ENV_RULE = "upper-case letters, digits and '_', not starting with a digit, e.g. \"DATA_DIR\"";

    static final Pattern CONTAINER = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");
    static final String CONTAINER_RULE = "letters, digits, '_', '.' and '-', starting with a letter or digit";

    static final Pattern LANGUAGE = Pattern.compile("[a-z][a-z0-9+-]{0,31}");
    static final String LANGUAGE_RULE = "lower-case letters, digits, '+' and '-', starting with a letter, e.g. \"java\"";

    static final Pattern SYSTEM = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
    static final String SYSTEM_RULE = "lower-case letters, digits, '.', '_' and '-', e.g. \"debian-12\"";

    static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9._+-]+");

    private Patterns() {
    }
}
