-- What the controller delivered to the hosts, what the hosts reported failing, and which requested
-- builds were sent to the builders (docs/design.md section 8): recorded, so that a successor neither skips
-- nor repeats a delivery or a build.
-- Kept to DDL that jOOQ's DDLDatabase reads: the jOOQ classes are generated from this file.

-- Per node, the latest delivery of its desired declaration: the revision sent, the fencing epoch of
-- the controller that sent it and when the broker confirmed it (core's Delivery; its "at", not the
-- server's clock). Plan work: written fenced, as desired_declarations.
CREATE TABLE deliveries (
    node         varchar(63) COLLATE "C" NOT NULL,
    revision     text        NOT NULL,
    epoch        bigint      NOT NULL,
    delivered_at timestamptz NOT NULL,
    CONSTRAINT deliveries_pk PRIMARY KEY (node),
    CONSTRAINT deliveries_node_not_empty CHECK (node <> ''),
    CONSTRAINT deliveries_revision_not_empty CHECK (char_length(revision) > 0),
    CONSTRAINT deliveries_epoch_positive CHECK (epoch >= 1)
);

-- Per node, the host's standing failure ({"kind": "failed"}): the revision it could not apply, the
-- steps as JSON in the order reported ([{"id", "done", "detail"}]) and the report's "at". A new
-- failure replaces it; acknowledging the node's desired revision deletes it.
CREATE TABLE node_failures (
    node        varchar(63) COLLATE "C" NOT NULL,
    revision    text        NOT NULL,
    steps       json        NOT NULL,
    reported_at timestamptz NOT NULL,
    CONSTRAINT node_failures_pk PRIMARY KEY (node),
    CONSTRAINT node_failures_node_not_empty CHECK (node <> ''),
    CONSTRAINT node_failures_revision_not_empty CHECK (char_length(revision) > 0)
);

-- A requested build is unsent (both null) until the controller publishes it to mesh.builds: then
-- sent_epoch is the epoch it was published with and sent_at when it was recorded. Requesting it
-- again (the build verb) makes it unsent. Requests made before this migration are unsent, so they
-- are sent once. A failed build is a builds row with outcome 'failed' and no build_requests row:
-- finishing deletes the request, requesting again inserts one.
ALTER TABLE build_requests ADD COLUMN sent_epoch bigint;
ALTER TABLE build_requests ADD COLUMN sent_at timestamptz;
ALTER TABLE build_requests ADD CONSTRAINT build_requests_sent_together CHECK ((sent_epoch IS NULL) = (sent_at IS NULL));
ALTER TABLE build_requests ADD CONSTRAINT build_requests_sent_epoch_positive CHECK (sent_epoch >= 1);
