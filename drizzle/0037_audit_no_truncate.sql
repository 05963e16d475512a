-- The audit log refuses TRUNCATE as it refuses UPDATE and DELETE (issue 23; docs/decisions/0014).
-- A row trigger never fires for TRUNCATE: it takes a statement trigger.
CREATE TRIGGER admin_audit_no_truncate BEFORE TRUNCATE ON admin_audit
  FOR EACH STATEMENT EXECUTE FUNCTION admin_audit_append_only();
