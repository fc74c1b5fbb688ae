-- Every handover of the plan lock (docs/design.md section 10; issue 13): who took it from whom, with which
-- epochs, when the one before let go and how long no one held it. One row per epoch taken, written in
-- the transaction that increments leadership.epoch.
-- Kept to DDL that jOOQ's DDLDatabase reads: the jOOQ classes are generated from this file.

-- What the successor needs to tell a planned release from a crash, and how long the gap was:
-- released_at is set by a planned release (the holder, still holding the advisory lock, records when it
-- lets go) and cleared by the next taking; seen_at is the last time the holder was seen holding the lock
-- (when it took it, and at every check of its session, about once a second). Both null before this
-- migration's first taking.
ALTER TABLE leadership ADD COLUMN released_at timestamptz;
ALTER TABLE leadership ADD COLUMN seen_at timestamptz;

-- how: 'first' (no one held the lock before: epoch_old is 0, from_instance '', released_at and gap_ms
-- null); 'planned' (the one before released it: released_at is when, gap_ms = taken_at - released_at);
-- 'crash' (its session ended without a release: released_at is the last time it was seen holding the
-- lock, so gap_ms is an upper bound of how long no one held it).
CREATE TABLE handovers (
    epoch_new     bigint      NOT NULL,
    epoch_old     bigint      NOT NULL,
    from_instance text        NOT NULL,
    to_instance   text        NOT NULL,
    released_at   timestamptz,
    taken_at      timestamptz NOT NULL,
    gap_ms        bigint,
    how           text        NOT NULL,
    CONSTRAINT handovers_pk PRIMARY KEY (epoch_new),
    CONSTRAINT handovers_epochs_increase CHECK (epoch_old >= 0 AND epoch_new > epoch_old),
    CONSTRAINT handovers_to_not_empty CHECK (char_length(to_instance) > 0),
    CONSTRAINT handovers_how CHECK (how IN ('first', 'planned', 'crash')),
    CONSTRAINT handovers_first_from_none CHECK ((how = 'first') = (epoch_old = 0)),
    CONSTRAINT handovers_gap_with_release CHECK ((gap_ms IS NULL) = (released_at IS NULL))
);
