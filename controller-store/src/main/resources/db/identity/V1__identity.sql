-- The identity database (docs/design.md section 9): who may call which verb. A principal is the
-- broker-validated user id of a caller; reads are open to any known principal, mutating verbs need
-- a grant. Kept to DDL that jOOQ's DDLDatabase reads: the jOOQ classes are generated from this file.

CREATE TABLE principals (
    name        varchar(255) COLLATE "C" NOT NULL,
    description text        NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    disabled_at timestamptz,
    CONSTRAINT principals_pk PRIMARY KEY (name),
    CONSTRAINT principals_name_not_empty CHECK (name <> '')
);

CREATE TABLE verb_grants (
    principal  varchar(255) COLLATE "C" NOT NULL,
    verb       varchar(63) COLLATE "C" NOT NULL,
    granted_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT verb_grants_pk PRIMARY KEY (principal, verb),
    CONSTRAINT verb_grants_principal_fk FOREIGN KEY (principal) REFERENCES principals (name) ON DELETE CASCADE,
    CONSTRAINT verb_grants_verb_not_empty CHECK (verb <> '')
);
