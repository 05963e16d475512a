-- The "new message" notices in the notification list are derived from the mailbox's unread
-- state at read time (ADR 0029): the stored in-app ones go (digest-only rows stay for their digest).
DELETE FROM "notification" WHERE "type" = 'new_message' AND "in_app";--> statement-breakpoint
-- The delayed unread-message reminder is the mailbox's job now (same payload, same key).
UPDATE "job" SET "kind" = 'mailbox.unread-reminder' WHERE "kind" = 'notification.unread-message' AND "state" = 'queued';
