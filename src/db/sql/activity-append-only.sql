-- Activity entries are append-only in the database itself. The only exception is removing a whole
-- company: its delete transaction sets boardroom.deleting_company to that company's id first.
CREATE OR REPLACE FUNCTION activity_log_append_only() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' AND OLD.company_id::text = current_setting('boardroom.deleting_company', true) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'activity_log is append-only' USING ERRCODE = 'P0001';
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS activity_log_append_only ON activity_log;
CREATE TRIGGER activity_log_append_only BEFORE UPDATE OR DELETE ON activity_log
  FOR EACH ROW EXECUTE FUNCTION activity_log_append_only();

CREATE OR REPLACE FUNCTION activity_log_no_truncate() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'activity_log is append-only' USING ERRCODE = 'P0001';
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS activity_log_no_truncate ON activity_log;
CREATE TRIGGER activity_log_no_truncate BEFORE TRUNCATE ON activity_log
  FOR EACH STATEMENT EXECUTE FUNCTION activity_log_no_truncate();
