-- What hosts report about their nodes every 5 s on mesh.nodes.<node>.facts (docs/design.md section 8),
-- the latest report per node, beside the node it upserts. A node added without facts (from a
-- mesh file, by a tool) has never been heard from: last_seen_at and processes are null, together.
-- Kept to DDL that jOOQ's DDLDatabase reads: the jOOQ classes are generated from this file.

-- The revision of the declaration the host last applied; '' when it applied none.
ALTER TABLE nodes ADD COLUMN applied_revision text NOT NULL DEFAULT '';
-- The host's processes as JSON, in the order reported: [{"name", "state", "since", "checks"}].
ALTER TABLE nodes ADD COLUMN processes json;
-- When the host sent its latest facts (their "at"): what "silent" is measured from.
ALTER TABLE nodes ADD COLUMN last_seen_at timestamptz;
ALTER TABLE nodes ADD CONSTRAINT nodes_facts_together CHECK ((last_seen_at IS NULL) = (processes IS NULL));
