-- company_issue_counts follows every insert, status change and delete of an issue, in the writing
-- transaction: the dashboard's task counts read these rows instead of counting issues.
CREATE OR REPLACE FUNCTION boardroom_count_issues() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE company_issue_counts SET count = count - 1 WHERE company_id = OLD.company_id AND status = OLD.status;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO company_issue_counts (company_id, status, count) VALUES (NEW.company_id, NEW.status, 1)
      ON CONFLICT (company_id, status) DO UPDATE SET count = company_issue_counts.count + 1;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS boardroom_count_issues ON issues;
CREATE TRIGGER boardroom_count_issues AFTER INSERT OR DELETE ON issues
  FOR EACH ROW EXECUTE FUNCTION boardroom_count_issues();
DROP TRIGGER IF EXISTS boardroom_count_issue_status ON issues;
CREATE TRIGGER boardroom_count_issue_status AFTER UPDATE OF status, company_id ON issues
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.company_id IS DISTINCT FROM NEW.company_id)
  EXECUTE FUNCTION boardroom_count_issues();
