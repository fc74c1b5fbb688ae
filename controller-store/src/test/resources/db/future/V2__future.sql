-- A migration no controller carries: MigrationsIT applies it to see a schema that is ahead.
CREATE TABLE future_marker (id integer NOT NULL);
