-- A lease on a PROCESSING key (Brandur's locked_at): a request that finds
-- a key PROCESSING whose lease is unset or older than the lease timeout
-- takes it over, so a key is never stuck after a failure that is not a
-- crash (a gateway 502, a database error).
ALTER TABLE idempotency_keys ADD COLUMN locked_at_ms BIGINT;

-- Every write to idempotency_keys, in order, kept by triggers
-- (migrations/<dialect>/0002_lease_history.sql): the
-- invariants (a stored response is never overwritten) are judged from
-- here, from the database, not from what the service says it did.
CREATE TABLE key_history (
    seq             {{auto_id}},
    idempotency_key TEXT    NOT NULL,
    op              INTEGER NOT NULL,
    status          TEXT    NOT NULL,
    request_body    TEXT    NOT NULL,
    response_code   INTEGER,
    response_body   TEXT,
    deleted         INTEGER NOT NULL DEFAULT 0
);

-- lock=none, the bug: the keys of the checked service with no unique
-- constraint on the key. Check (SELECT), then INSERT: two requests that
-- both read before either inserts both insert, and both charge.
CREATE TABLE idempotency_keys_unlocked (
    id              {{auto_id}},
    idempotency_key TEXT    NOT NULL,
    op              INTEGER NOT NULL,
    status          TEXT    NOT NULL,
    response_code   INTEGER,
    response_body   TEXT
);
