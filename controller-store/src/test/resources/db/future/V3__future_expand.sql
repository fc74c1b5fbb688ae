-- A migration no controller carries, as a newer controller's expand would be: MigrationsIT applies it
-- to see a schema that is ahead and still compatible (the floor untouched).
CREATE TABLE future_marker (id integer NOT NULL);
