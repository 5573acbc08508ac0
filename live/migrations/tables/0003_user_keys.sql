-- The rest-service's key stores (key-scoped-to-user). It charges in its
-- own transaction, which also stores the answer under the key: no
-- PROCESSING state, the row is written COMPLETED with the charge.

-- Keys scoped per user, as Brandur's design has them: the unique
-- constraint is (user_id, idempotency_key), so user 2's key "payment-1"
-- is not user 1's.
CREATE TABLE user_idempotency_keys (
    user_id         BIGINT  NOT NULL,            -- the authenticated user (Authorization: Bearer user-N)
    idempotency_key TEXT    NOT NULL,
    op              INTEGER NOT NULL,
    response_code   INTEGER NOT NULL,            -- the stored response, replayed byte for byte
    response_body   TEXT    NOT NULL,
    created_at_ms   BIGINT  NOT NULL,
    PRIMARY KEY (user_id, idempotency_key)
);

-- key-scope=global, the bug: the same table keyed by the key alone. The
-- user is stored and never looked at: a key another user stored answers
-- this user with that user's receipt.
CREATE TABLE global_idempotency_keys (
    idempotency_key TEXT    PRIMARY KEY,
    user_id         BIGINT  NOT NULL,
    op              INTEGER NOT NULL,
    response_code   INTEGER NOT NULL,
    response_body   TEXT    NOT NULL,
    created_at_ms   BIGINT  NOT NULL
);
