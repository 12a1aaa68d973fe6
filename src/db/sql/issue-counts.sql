-- company_issue_counts follows every insert, status change and delete of an issue, in the writing
-- transaction: the dashboard's task counts read these rows instead of counting issues.
-- The row a write moves is its backend's shard (pid mod 16), so concurrent creates in one company
-- lock different rows instead of queueing on one until each commits. A status change moves its
-- two rows in status order, so two opposite changes on one shard cannot deadlock.
CREATE OR REPLACE FUNCTION boardroom_count_issues() RETURNS trigger AS $$
DECLARE
  shard smallint := pg_backend_pid() % 16;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.company_id = NEW.company_id AND NEW.status < OLD.status THEN
    PERFORM boardroom_count_issue(NEW.company_id, NEW.status, shard, 1);
    PERFORM boardroom_count_issue(OLD.company_id, OLD.status, shard, -1);
    RETURN NULL;
  END IF;
  -- A delete cascading from its company's delete has nothing left to count (an upsert would
  -- reference the company being deleted).
  IF TG_OP = 'UPDATE' OR (TG_OP = 'DELETE' AND EXISTS (SELECT 1 FROM companies WHERE id = OLD.company_id)) THEN
    PERFORM boardroom_count_issue(OLD.company_id, OLD.status, shard, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM boardroom_count_issue(NEW.company_id, NEW.status, shard, 1);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION boardroom_count_issue(company uuid, issue_status text, at_shard smallint, delta integer) RETURNS void AS $$
  INSERT INTO company_issue_counts (company_id, status, shard, count) VALUES (company, issue_status, at_shard, delta)
    ON CONFLICT (company_id, status, shard) DO UPDATE SET count = company_issue_counts.count + delta;
$$ LANGUAGE sql;

DROP TRIGGER IF EXISTS boardroom_count_issues ON issues;
CREATE TRIGGER boardroom_count_issues AFTER INSERT OR DELETE ON issues
  FOR EACH ROW EXECUTE FUNCTION boardroom_count_issues();
DROP TRIGGER IF EXISTS boardroom_count_issue_status ON issues;
CREATE TRIGGER boardroom_count_issue_status AFTER UPDATE OF status, company_id ON issues
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.company_id IS DISTINCT FROM NEW.company_id)
  EXECUTE FUNCTION boardroom_count_issues();
