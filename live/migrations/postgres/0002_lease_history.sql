-- The triggers that keep key_history (tables/0002_lease_history.sql).
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
