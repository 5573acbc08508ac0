-- The triggers that keep intent_history (tables/0003_payment_intents.sql).
CREATE TRIGGER intent_history_insert AFTER INSERT ON payment_intents BEGIN
    INSERT INTO intent_history (idempotency_key, op, status, request_body, response_code, response_body, at_ms)
    VALUES (NEW.idempotency_key, NEW.op, NEW.status, NEW.request_body, NEW.response_code, NEW.response_body, NEW.at_ms);
END;
CREATE TRIGGER intent_history_update AFTER UPDATE OF status, response_code, response_body ON payment_intents BEGIN
    INSERT INTO intent_history (idempotency_key, op, status, request_body, response_code, response_body, at_ms)
    VALUES (NEW.idempotency_key, NEW.op, NEW.status, NEW.request_body, NEW.response_code, NEW.response_body, NEW.at_ms);
END;
