-- Existing entries get 0 (a constant default: no table rewrite); new ones the writing transaction's id.
ALTER TABLE "activity_log" ADD COLUMN "tx_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "activity_log" ALTER COLUMN "tx_id" SET DEFAULT (pg_current_xact_id()::text)::bigint;--> statement-breakpoint
CREATE INDEX "activity_company_tx_idx" ON "activity_log" USING btree ("company_id","tx_id","id");
