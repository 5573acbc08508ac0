-- The intent service of ambiguous-external-outcome: one row per payment
-- intent, persisted as PROCESSING (with its body) before the provider is
-- called under the Idempotency-Key; UNKNOWN when the call's deadline
-- passed with no answer (the reconciler asks the provider by the key);
-- COMPLETED with the response. calls counts the provider calls made for
-- the intent, so a deadline of an older call is told from the current
-- one; at_ms is the run's virtual time of the last write.
CREATE TABLE payment_intents (
    idempotency_key TEXT PRIMARY KEY,
    request_hash    TEXT    NOT NULL,
    request_body    TEXT    NOT NULL,
    op              INTEGER NOT NULL,
    status          TEXT    NOT NULL CHECK (status IN ('PROCESSING', 'COMPLETED', 'UNKNOWN')),
    calls           INTEGER NOT NULL DEFAULT 0,
    response_code   INTEGER,
    response_body   TEXT,
    at_ms           BIGINT  NOT NULL
);

-- on-timeout=retry-new-key: every provider reference the service issued,
-- with the intent it was issued for (the provider's answer echoes only
-- the reference).
CREATE TABLE provider_refs (
    ref             TEXT PRIMARY KEY,
    idempotency_key TEXT NOT NULL
);

-- Every write to payment_intents, in order, with its virtual time: the
-- UNKNOWN backlog (max-unknown-backlog, unknown-backlog-bounded) and the
-- arrival rate of unknown outcomes are judged from here.
CREATE TABLE intent_history (
    seq             {{auto_id}},
    idempotency_key TEXT    NOT NULL,
    op              INTEGER NOT NULL,
    status          TEXT    NOT NULL,
    request_body    TEXT    NOT NULL,
    response_code   INTEGER,
    response_body   TEXT,
    at_ms           BIGINT  NOT NULL
);
