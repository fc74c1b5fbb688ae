-- The oldest controller that may run on this schema (issue 22; docs/store.md, "Two versions on one
-- schema"). Migrations are backward compatible by rule for one version: one that expands the schema
-- (a table, a nullable column, an index) leaves this row alone, so the controller of the version
-- before keeps running on, and starting on, the schema the newer one migrated. A migration that
-- contracts it (drops or renames what an older controller still reads or writes; written a version
-- after the expand it undoes) raises the row in the same script: migration = the newest migration
-- of the oldest controller that still works on the result, controller = that controller's version.
-- A controller that finds migrations it does not carry reads this row: it runs when it carries
-- `migration`, and refuses otherwise, naming `controller` as the version to run.
-- Kept to DDL that jOOQ's DDLDatabase reads: the jOOQ classes are generated from this file.
CREATE TABLE schema_floor (
    single     boolean NOT NULL DEFAULT true,
    migration  text    NOT NULL,
    controller text    NOT NULL,
    CONSTRAINT schema_floor_pk PRIMARY KEY (single),
    CONSTRAINT schema_floor_single CHECK (single)
);
INSERT INTO schema_floor (migration, controller) VALUES ('2', '0.1.0');
