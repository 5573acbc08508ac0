-- A lease on a PROCESSING key (Brandur's locked_at): a request that finds
-- a key PROCESSING whose lease is unset or older than the lease timeout
-- takes it over, so a key is never stuck after a failure that is not a
-- crash (a gateway 502, a database error).
ALTER TABLE idempotency_keys ADD COLUMN locked_at_ms BIGINT;

-- Every write to idempotency_keys, in order, kept by a trigger: the
-- invariants (a stored response is never overwritten) are judged from
-- here, from the database, not from what the service says it did.
CREATE TABLE key_history (
    seq             BIGSERIAL PRIMARY KEY,
    idempotency_key TEXT    NOT NULL,
    op              INTEGER NOT NULL,
    status          TEXT    NOT NULL,
    request_body    TEXT    NOT NULL,
    response_code   INTEGER,
    response_body   TEXT,
    deleted         INTEGER NOT NULL DEFAULT 0
);
CREATE FUNCTION key_history_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO key_history (idempotency_key, op, status, request_body, response_code, response_body, deleted)
        VALUES (OLD.idempotency_key, OLD.op, OLD.status, OLD.request_body, OLD.response_code, OLD.response_body, 1);
        RETURN OLD;
    END IF;
    INSERT INTO key_history (idempotency_key, op, status, request_body, response_code, response_body)
    VALUES (NEW.idempotency_key, NEW.op, NEW.status, NEW.request_body, NEW.response_code, NEW.response_body);
    RETURN NEW;
END $$;
CREATE TRIGGER key_history_insert AFTER INSERT OR DELETE ON idempotency_keys
    FOR EACH ROW EXECUTE FUNCTION key_history_log();
CREATE TRIGGER key_history_update AFTER UPDATE OF status, response_code, response_body, request_body, op ON idempotency_keys
    FOR EACH ROW EXECUTE FUNCTION key_history_log();

-- lock=none, the bug: the keys of the checked service with no unique
-- constraint on the key. Check (SELECT), then INSERT: two requests that
-- both read before either inserts both insert, and both charge.
CREATE TABLE idempotency_keys_unlocked (
    id              BIGSERIAL PRIMARY KEY,
    idempotency_key TEXT    NOT NULL,
    op              INTEGER NOT NULL,
    status          TEXT    NOT NULL,
    response_code   INTEGER,
    response_body   TEXT
);
