-- The licences database (docs/design.md section 9): per module, on how many nodes it may be assigned
-- and until when. A module without a row is not limited. Kept to DDL that jOOQ's DDLDatabase
-- reads: the jOOQ classes are generated from this file.

CREATE TABLE licences (
    module     varchar(63) COLLATE "C" NOT NULL,
    max_nodes  integer     NOT NULL,
    expires_at timestamptz NOT NULL,
    issued_at  timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT licences_pk PRIMARY KEY (module),
    CONSTRAINT licences_module_not_empty CHECK (module <> ''),
    CONSTRAINT licences_max_nodes_not_negative CHECK (max_nodes >= 0)
);
