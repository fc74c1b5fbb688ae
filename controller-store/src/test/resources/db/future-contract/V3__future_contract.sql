-- A migration no controller carries, as a newer controller's contract would be: it raises the floor,
-- so that the controllers before it refuse the schema (MigrationsIT).
ALTER TABLE schema_floor ADD COLUMN future_column integer;
UPDATE schema_floor SET migration = '3', controller = '9.9.0';
