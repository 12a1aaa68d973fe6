CREATE TABLE "agent_signing_secrets" (
	"agent_id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"iv" text NOT NULL,
	"auth_tag" text NOT NULL,
	"ciphertext" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "wakeups_queue_idx";--> statement-breakpoint
DROP INDEX "heartbeat_runs_status_idx";--> statement-breakpoint
ALTER TABLE "agent_wakeup_requests" ADD COLUMN "outcome_reason" text;--> statement-breakpoint
ALTER TABLE "agent_wakeup_requests" ADD COLUMN "run_id" uuid;--> statement-breakpoint
ALTER TABLE "agent_wakeup_requests" ADD COLUMN "run_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_wakeup_requests" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_wakeup_requests" ADD COLUMN "locked_by" text;--> statement-breakpoint
ALTER TABLE "agent_wakeup_requests" ADD COLUMN "locked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "agent_wakeup_requests" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "heartbeat_runs" ADD COLUMN "issue_id" uuid;--> statement-breakpoint
ALTER TABLE "heartbeat_runs" ADD COLUMN "wake_reason" text;--> statement-breakpoint
ALTER TABLE "heartbeat_runs" ADD COLUMN "log_truncated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "heartbeat_runs" ADD COLUMN "exit_code" integer;--> statement-breakpoint
ALTER TABLE "heartbeat_runs" ADD COLUMN "signal" text;--> statement-breakpoint
ALTER TABLE "heartbeat_runs" ADD COLUMN "owner_replica" text;--> statement-breakpoint
ALTER TABLE "heartbeat_runs" ADD COLUMN "owner_boot" text;--> statement-breakpoint
ALTER TABLE "heartbeat_runs" ADD COLUMN "pid" integer;--> statement-breakpoint
ALTER TABLE "heartbeat_runs" ADD COLUMN "lease_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "heartbeat_runs" ADD COLUMN "deadline_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "heartbeat_runs" ADD COLUMN "grace_sec" integer;--> statement-breakpoint
ALTER TABLE "agent_signing_secrets" ADD CONSTRAINT "agent_signing_secrets_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_signing_secrets" ADD CONSTRAINT "agent_signing_secrets_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wakeups_claimable_idx" ON "agent_wakeup_requests" USING btree ("run_at") WHERE "agent_wakeup_requests"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "wakeups_deferred_idx" ON "agent_wakeup_requests" USING btree ("agent_id","issue_id") WHERE "agent_wakeup_requests"."status" = 'deferred';--> statement-breakpoint
CREATE INDEX "wakeups_claimed_idx" ON "agent_wakeup_requests" USING btree ("locked_at") WHERE "agent_wakeup_requests"."status" = 'claimed';--> statement-breakpoint
CREATE INDEX "wakeups_run_idx" ON "agent_wakeup_requests" USING btree ("run_id") WHERE "agent_wakeup_requests"."run_id" is not null;--> statement-breakpoint
CREATE INDEX "wakeups_finished_idx" ON "agent_wakeup_requests" USING btree ("finished_at") WHERE "agent_wakeup_requests"."finished_at" is not null;--> statement-breakpoint
CREATE INDEX "heartbeat_runs_company_idx" ON "heartbeat_runs" USING btree ("company_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "heartbeat_runs_live_idx" ON "heartbeat_runs" USING btree ("lease_expires_at") WHERE "heartbeat_runs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "heartbeat_runs_agent_live_idx" ON "heartbeat_runs" USING btree ("agent_id") WHERE "heartbeat_runs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "heartbeat_runs_finished_idx" ON "heartbeat_runs" USING btree ("finished_at") WHERE "heartbeat_runs"."finished_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "heartbeat_runs_issue_live_uq" ON "heartbeat_runs" USING btree ("issue_id") WHERE "heartbeat_runs"."issue_id" is not null and "heartbeat_runs"."status" in ('queued', 'running');--> statement-breakpoint
-- Live runs from before the engine (first seen on a checkout) get the lease a checkout gives, from their last use.
UPDATE "heartbeat_runs" SET "lease_expires_at" = "updated_at" + interval '30 minutes' WHERE "status" in ('queued', 'running');
