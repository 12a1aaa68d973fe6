-- Live company event streams (src/modules/events/): every activity entry raises a notification on
-- boardroom_activity, delivered at commit (never for a rollback) to every replica's LISTEN
-- connection, which wakes the streams of that company. The payload is tiny on purpose; streams
-- read the entries themselves, in the table's stream order, so a lost notification delays an event
-- and never loses it.
CREATE OR REPLACE FUNCTION boardroom_notify_activity() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('boardroom_activity', json_build_object('companyId', NEW.company_id, 'id', NEW.id)::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS boardroom_notify_activity ON activity_log;
CREATE TRIGGER boardroom_notify_activity AFTER INSERT ON activity_log
  FOR EACH ROW EXECUTE FUNCTION boardroom_notify_activity();
