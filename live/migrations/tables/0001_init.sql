-- The payment service's Idempotency-Key table, its transport dedup table,
-- and the card gateway's ledger. Both dialects: the auto_id mark in braces
-- stands for the dialect's auto-increment primary key (live/db.go's autoID).

-- One row per Idempotency-Key, inserted as PROCESSING before the gateway is
-- called; the primary key is the unique constraint that lets one request
-- through (INSERT … ON CONFLICT DO NOTHING) and answers the others 409.
CREATE TABLE idempotency_keys (
    idempotency_key TEXT PRIMARY KEY,
    request_hash    TEXT    NOT NULL,            -- sha256 of the body: another payload gets 422
    request_body    TEXT    NOT NULL,            -- what recovery re-sends after a crash
    op              INTEGER NOT NULL,
    status          TEXT    NOT NULL CHECK (status IN ('PROCESSING', 'COMPLETED')),
    response_code   INTEGER,                     -- the stored response, replayed byte for byte
    response_body   TEXT,
    created_at_ms   BIGINT  NOT NULL,
    expires_at_ms   BIGINT                       -- NULL: kept forever (retention > retry horizon)
);

-- At-most-once: the transport's duplicate suppression, one row per
-- (op, attempt) request.
CREATE TABLE seen_requests (
    op      INTEGER NOT NULL,
    attempt INTEGER NOT NULL,
    PRIMARY KEY (op, attempt)
);

-- The gateway's ledger: one row per card charge. Effects are counted here.
CREATE TABLE charges (
    id              {{auto_id}},
    op              INTEGER NOT NULL,
    attempt         INTEGER NOT NULL,
    idempotency_key TEXT,
    amount          BIGINT  NOT NULL
);
CREATE INDEX charges_by_key ON charges (idempotency_key);

-- An idempotent gateway (provider=idempotent) dedups charges by key.
CREATE TABLE gateway_keys (
    idempotency_key TEXT PRIMARY KEY,
    charge_id       BIGINT NOT NULL
);
