-- The inventory database (docs/design.md section 9): the controller's record of the mesh.
-- Names that the controller lists in order (nodes, modules, assignments) use the "C" collation, so
-- PostgreSQL sorts them as Java sorts strings, whatever the database's locale.
-- Kept to DDL that jOOQ's DDLDatabase reads: the jOOQ classes are generated from this file.

-- Nodes as they report themselves.
CREATE TABLE nodes (
    name          varchar(63) COLLATE "C" NOT NULL,
    address       varchar(255) NOT NULL,
    system        varchar(64) NOT NULL,
    first_seen_at timestamptz NOT NULL DEFAULT now(),
    reported_at   timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT nodes_pk PRIMARY KEY (name),
    CONSTRAINT nodes_name_not_empty CHECK (name <> ''),
    CONSTRAINT nodes_address_not_empty CHECK (address <> ''),
    CONSTRAINT nodes_system_not_empty CHECK (system <> '')
);

-- Every pushed version of every module, with the manifest as JSON text (json, not jsonb: the
-- order of a manifest's keys is its document order, which jsonb would not keep) and the digest
-- that says whether a second push of the same version has the same content.
CREATE TABLE module_versions (
    module    varchar(63) COLLATE "C" NOT NULL,
    version   varchar(64) COLLATE "C" NOT NULL,
    digest    text        NOT NULL,
    manifest  json        NOT NULL,
    pushed_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT module_versions_pk PRIMARY KEY (module, version),
    CONSTRAINT module_versions_module_not_empty CHECK (module <> ''),
    CONSTRAINT module_versions_version_not_empty CHECK (version <> ''),
    CONSTRAINT module_versions_digest_not_empty CHECK (char_length(digest) > 0)
);

-- Per module, the version pushed last: the one composition uses.
CREATE TABLE modules (
    name           varchar(63) COLLATE "C" NOT NULL,
    latest_version varchar(64) COLLATE "C" NOT NULL,
    updated_at     timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT modules_pk PRIMARY KEY (name),
    CONSTRAINT modules_latest_fk FOREIGN KEY (name, latest_version)
        REFERENCES module_versions (module, version)
);

-- Modules assigned to nodes. No foreign keys to nodes or modules: a module may be assigned to a
-- node before the node reports itself, and the verbs check what must exist.
CREATE TABLE assignments (
    node        varchar(63) COLLATE "C" NOT NULL,
    module      varchar(63) COLLATE "C" NOT NULL,
    assigned_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT assignments_pk PRIMARY KEY (node, module),
    CONSTRAINT assignments_node_not_empty CHECK (node <> ''),
    CONSTRAINT assignments_module_not_empty CHECK (module <> '')
);
CREATE INDEX assignments_module ON assignments (module);

-- Builds requested and not finished yet, one per (module, version, artifact): the id
-- build:MODULE@VERSION/ARTIFACT in columns.
CREATE TABLE build_requests (
    module       varchar(63) COLLATE "C" NOT NULL,
    version      varchar(64) COLLATE "C" NOT NULL,
    artifact     varchar(63) COLLATE "C" NOT NULL,
    requested_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT build_requests_pk PRIMARY KEY (module, version, artifact)
);

-- Finished builds, the latest outcome per (module, version, artifact). A failed build may be
-- requested again; a succeeded one is never built twice.
CREATE TABLE builds (
    module      varchar(63) COLLATE "C" NOT NULL,
    version     varchar(64) COLLATE "C" NOT NULL,
    artifact    varchar(63) COLLATE "C" NOT NULL,
    outcome     text        NOT NULL,
    detail      text        NOT NULL DEFAULT '',
    finished_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT builds_pk PRIMARY KEY (module, version, artifact),
    CONSTRAINT builds_outcome CHECK (outcome IN ('succeeded', 'failed'))
);

-- The fencing epoch: one row. Taking the plan lock increments the epoch; every plan write checks,
-- in its transaction, that the epoch is still the writer's.
CREATE TABLE leadership (
    singleton       smallint    NOT NULL DEFAULT 1,
    epoch           bigint      NOT NULL,
    holder          text        NOT NULL DEFAULT '',
    previous_holder text        NOT NULL DEFAULT '',
    since           timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT leadership_pk PRIMARY KEY (singleton),
    CONSTRAINT leadership_singleton CHECK (singleton = 1),
    CONSTRAINT leadership_epoch_not_negative CHECK (epoch >= 0)
);
INSERT INTO leadership (singleton, epoch) VALUES (1, 0);

-- Plans in execution and executed: the plan document, the epoch it was written under and the
-- digest of its inputs, so that a controller that takes over resumes it.
CREATE TABLE plans (
    id            bigint      GENERATED ALWAYS AS IDENTITY,
    epoch         bigint      NOT NULL,
    inputs_digest text        NOT NULL,
    document      json        NOT NULL,
    state         text        NOT NULL DEFAULT 'executing',
    created_at    timestamptz NOT NULL DEFAULT now(),
    finished_at   timestamptz,
    CONSTRAINT plans_pk PRIMARY KEY (id),
    CONSTRAINT plans_state CHECK (state IN ('executing', 'completed', 'superseded')),
    CONSTRAINT plans_finished_when_not_executing CHECK ((state = 'executing') = (finished_at IS NULL))
);
/* [jooq ignore start] */
-- At most one plan executes at a time (PostgreSQL partial index; DDLDatabase does not need it).
CREATE UNIQUE INDEX plans_one_executing ON plans (state) WHERE state = 'executing';
/* [jooq ignore stop] */

-- The state of each change of a plan, by its stable change id (node/kind:name).
CREATE TABLE plan_steps (
    plan_id    bigint      NOT NULL,
    change_id  varchar(1024) COLLATE "C" NOT NULL,
    state      text        NOT NULL DEFAULT 'pending',
    detail     text        NOT NULL DEFAULT '',
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT plan_steps_pk PRIMARY KEY (plan_id, change_id),
    CONSTRAINT plan_steps_plan_fk FOREIGN KEY (plan_id) REFERENCES plans (id) ON DELETE CASCADE,
    CONSTRAINT plan_steps_state CHECK (state IN ('pending', 'running', 'done', 'failed', 'skipped'))
);

-- The declaration each node must run (delivered with its revision) and the one it acknowledged
-- applying, as canonical JSON.
CREATE TABLE desired_declarations (
    node        varchar(63) COLLATE "C" NOT NULL,
    revision    text        NOT NULL,
    declaration json        NOT NULL,
    plan_id     bigint,
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT desired_declarations_pk PRIMARY KEY (node),
    CONSTRAINT desired_declarations_plan_fk FOREIGN KEY (plan_id) REFERENCES plans (id) ON DELETE SET NULL
);

CREATE TABLE acknowledged_declarations (
    node            varchar(63) COLLATE "C" NOT NULL,
    revision        text        NOT NULL,
    declaration     json        NOT NULL,
    acknowledged_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT acknowledged_declarations_pk PRIMARY KEY (node)
);

-- Mutating verbs are idempotent by request id (the broker's message_id): a repeated request
-- returns the recorded result. The principal and a digest of the arguments are kept so that a
-- reused id with another caller or other arguments is refused instead of answered.
CREATE TABLE request_records (
    request_id       varchar(255) NOT NULL,
    principal        varchar(255) NOT NULL,
    verb             varchar(63) NOT NULL,
    arguments_digest text        NOT NULL,
    result           json        NOT NULL,
    is_error         boolean     NOT NULL,
    recorded_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT request_records_pk PRIMARY KEY (request_id),
    CONSTRAINT request_records_request_id_not_empty CHECK (request_id <> '')
);
CREATE INDEX request_records_recorded_at ON request_records (recorded_at);
