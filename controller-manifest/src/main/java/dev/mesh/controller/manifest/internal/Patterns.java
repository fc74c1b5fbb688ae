package dev.mesh.controller.manifest.internal;

/** The patterns of docs/design.md section 3, each with the sentence that explains it in a message. */
final class Patterns {

    static final Form NAME = Form.of("a-z", "a-z0-9-", 1, 63);
    static final String NAME_RULE = "lower-case letters, digits and '-', starting with a letter, at most 63 characters";

    static final Form VERSION = Form.of("0-9A-Za-z", "0-9A-Za-z.+_-", 1, 64);
    static final String VERSION_RULE = "1 to 64 letters, digits, '.', '+', '_' or '-', starting with a letter or digit,"
            + " e.g. \"1.4.2\"";

    static final Form SLUG = Form.of("a-z", "a-z0-9-", 1, 32);
    static final String SLUG_RULE = "lower-case letters, digits and '-', starting with a letter, at most 32 characters";

    static final Form SECRET = Form.of("a-z", "a-z0-9-", 1, Integer.MAX_VALUE);
    static final String SECRET_RULE = "lower-case letters, digits and '-', starting with a letter";

    static final Form ACCOUNT = Form.of("a-z_", "a-z0-9_-", 1, 32);
    static final String ACCOUNT_RULE = "a POSIX account name: lower-case letters, digits, '_' and '-', starting with a"
            + " letter or '_', at most 32 characters";

    static final Form MODE = Form.of("0-7", "0-7", 3, 4);
    static final String MODE_RULE = "an octal permission string of 3 or 4 digits, e.g. \"0750\"";

    static final Form ENV = Form.of("A-Z_", "A-Z0-9_", 1, Integer.MAX_VALUE);
    static final String ENV_RULE = "upper-case letters, digits and '_', not starting with a digit, e.g. \"DATA_DIR\"";

    static final Form CONTAINER = Form.of("A-Za-z0-9", "A-Za-z0-9_.-", 1, Integer.MAX_VALUE);
    static final String CONTAINER_RULE = "letters, digits, '_', '.' and '-', starting with a letter or digit";

    static final Form LANGUAGE = Form.of("a-z", "a-z0-9+-", 1, 32);
    static final String LANGUAGE_RULE = "lower-case letters, digits, '+' and '-', starting with a letter, e.g. \"java\"";

    static final Form SYSTEM = Form.of("a-z0-9", "a-z0-9._-", 1, 64);
    static final String SYSTEM_RULE = "lower-case letters, digits, '.', '_' and '-', e.g. \"debian-12\"";

    static final Form FILE_NAME = Form.of("A-Za-z0-9._+-", "A-Za-z0-9._+-", 1, Integer.MAX_VALUE);

    private Patterns() {
    }
}
