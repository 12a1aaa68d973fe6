CREATE TABLE "cost_rollups" (
	"company_id" uuid NOT NULL,
	"breakdown" text NOT NULL,
	"grain" text NOT NULL,
	"bucket_start" timestamp with time zone NOT NULL,
	"agent_id" uuid,
	"project_id" uuid,
	"provider" text DEFAULT '' NOT NULL,
	"biller" text DEFAULT '' NOT NULL,
	"model" text DEFAULT '' NOT NULL,
	"billing_type" text DEFAULT '' NOT NULL,
	"cost_cents" bigint NOT NULL,
	"input_tokens" bigint NOT NULL,
	"cached_input_tokens" bigint NOT NULL,
	"output_tokens" bigint NOT NULL,
	"event_count" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "finance_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"direction" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"estimated" boolean DEFAULT false NOT NULL,
	"biller" text,
	"description" text,
	"metadata" jsonb,
	"occurred_at" timestamp with time zone NOT NULL,
	"recorded_by_actor_type" text NOT NULL,
	"recorded_by_actor_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cost_rollups" ADD CONSTRAINT "cost_rollups_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_events" ADD CONSTRAINT "finance_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cost_rollups_key_uq" ON "cost_rollups" USING btree ("company_id","breakdown","grain","bucket_start",coalesce("agent_id", '00000000-0000-0000-0000-000000000000'::uuid),coalesce("project_id", '00000000-0000-0000-0000-000000000000'::uuid),"provider","biller","model","billing_type");--> statement-breakpoint
CREATE INDEX "finance_events_company_time_idx" ON "finance_events" USING btree ("company_id","occurred_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- The rollups of the cost events recorded before this migration (recordCostEvent keeps them from here
-- on): hours on the full key first, then every breakdown and grain from those (as rebuildRollups).
WITH "hours" AS (
  SELECT "company_id", date_trunc('hour', "occurred_at", 'UTC') AS "hour", "agent_id", "project_id", "provider", "biller", "model", "billing_type",
         sum("cost_cents") AS "cost", sum("input_tokens") AS "input", sum("cached_input_tokens") AS "cached", sum("output_tokens") AS "output", count(*) AS "events"
  FROM "cost_events"
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
)
INSERT INTO "cost_rollups" ("company_id", "breakdown", "grain", "bucket_start", "agent_id", "project_id", "provider", "biller", "model", "billing_type", "cost_cents", "input_tokens", "cached_input_tokens", "output_tokens", "event_count")
SELECT h."company_id", b."breakdown", g."grain", date_trunc(g."grain", h."hour", 'UTC'),
       CASE WHEN b."breakdown" = 'agent_model' THEN h."agent_id" END,
       CASE WHEN b."breakdown" = 'project' THEN h."project_id" END,
       CASE WHEN b."breakdown" IN ('agent_model', 'provider') THEN h."provider" ELSE '' END,
       CASE WHEN b."breakdown" = 'provider' THEN h."biller" ELSE '' END,
       CASE WHEN b."breakdown" = 'agent_model' THEN h."model" ELSE '' END,
       CASE WHEN b."breakdown" = 'provider' THEN h."billing_type" ELSE '' END,
       sum(h."cost"), sum(h."input"), sum(h."cached"), sum(h."output"), sum(h."events")
FROM "hours" h
CROSS JOIN (VALUES ('agent_model'), ('provider'), ('project')) AS b("breakdown")
CROSS JOIN (VALUES ('hour'), ('day'), ('month')) AS g("grain")
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10;
