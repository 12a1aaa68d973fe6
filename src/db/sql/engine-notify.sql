-- The engine's wake-up calls, raised by the database itself so that no producer can forget one.
-- NOTIFY is delivered when the writing transaction commits (never for a rollback), to every
-- replica listening; identical payloads in one transaction are delivered once.

-- A wakeup became claimable (inserted queued, or promoted back to queued): dispatchers claim now
-- instead of at their next poll.
CREATE OR REPLACE FUNCTION boardroom_notify_wakeup() RETURNS trigger AS $$
BEGIN
  IF NEW.status = 'queued' THEN
    PERFORM pg_notify('boardroom_wakeup', NEW.agent_id::text);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS boardroom_notify_wakeup ON agent_wakeup_requests;
CREATE TRIGGER boardroom_notify_wakeup AFTER INSERT OR UPDATE OF status ON agent_wakeup_requests
  FOR EACH ROW EXECUTE FUNCTION boardroom_notify_wakeup();

-- A run changed status: the owning replica stops work that was cancelled or reaped elsewhere (at once,
-- without grace, when the error says a budget stopped it), and event streams on every replica hear of it.
CREATE OR REPLACE FUNCTION boardroom_notify_run() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM NEW.status THEN
    PERFORM pg_notify('boardroom_run', json_build_object(
      'runId', NEW.id, 'companyId', NEW.company_id, 'agentId', NEW.agent_id, 'issueId', NEW.issue_id, 'status', NEW.status, 'error', NEW.error
    )::text);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS boardroom_notify_run ON heartbeat_runs;
CREATE TRIGGER boardroom_notify_run AFTER INSERT OR UPDATE OF status ON heartbeat_runs
  FOR EACH ROW EXECUTE FUNCTION boardroom_notify_run();

-- A hard budget incident awaits its stop (written with stop_pending, the outbox entry): every
-- replica's engine claims it at once (engine/budget-stops.ts) instead of at its next sweep.
CREATE OR REPLACE FUNCTION boardroom_notify_budget_stop() RETURNS trigger AS $$
BEGIN
  IF NEW.stop_pending THEN
    PERFORM pg_notify('boardroom_budget_stop', NEW.company_id::text);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS boardroom_notify_budget_stop ON budget_incidents;
CREATE TRIGGER boardroom_notify_budget_stop AFTER INSERT OR UPDATE OF stop_pending ON budget_incidents
  FOR EACH ROW EXECUTE FUNCTION boardroom_notify_budget_stop();
