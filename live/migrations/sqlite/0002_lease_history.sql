-- The triggers that keep key_history (tables/0002_lease_history.sql).
CREATE TRIGGER key_history_insert AFTER INSERT ON idempotency_keys BEGIN
    INSERT INTO key_history (idempotency_key, op, status, request_body, response_code, response_body)
    VALUES (NEW.idempotency_key, NEW.op, NEW.status, NEW.request_body, NEW.response_code, NEW.response_body);
END;
CREATE TRIGGER key_history_update AFTER UPDATE OF status, response_code, response_body, request_body, op ON idempotency_keys BEGIN
    INSERT INTO key_history (idempotency_key, op, status, request_body, response_code, response_body)
    VALUES (NEW.idempotency_key, NEW.op, NEW.status, NEW.request_body, NEW.response_code, NEW.response_body);
END;
CREATE TRIGGER key_history_delete AFTER DELETE ON idempotency_keys BEGIN
    INSERT INTO key_history (idempotency_key, op, status, request_body, response_code, response_body, deleted)
    VALUES (OLD.idempotency_key, OLD.op, OLD.status, OLD.request_body, OLD.response_code, OLD.response_body, 1);
END;
