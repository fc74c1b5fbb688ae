-- What a successful build made (issue 22): the SHA-256 of its archive and where a host gets it. A
-- declaration pins the digest of the artifact each process runs, so a success without them is not a
-- build a declaration can name: such rows (written before builders reported the archive) count as not
-- built, and the build may be requested again.
-- Expand only: both columns are nullable, so the controller of the version before, which writes
-- neither, keeps working on this schema (docs/store.md, "Two versions on one schema").
-- Kept to DDL that jOOQ's DDLDatabase reads: the jOOQ classes are generated from this file.
ALTER TABLE builds ADD COLUMN sha256 char(64);
ALTER TABLE builds ADD COLUMN location text;
ALTER TABLE builds ADD CONSTRAINT builds_artifact_together CHECK ((sha256 IS NULL) = (location IS NULL));
