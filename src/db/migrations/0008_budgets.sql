CREATE TABLE "budget_incidents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"policy_id" uuid NOT NULL,
	"scope_type" text NOT NULL,
	"scope_id" uuid NOT NULL,
	"metric" text NOT NULL,
	"window_key" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"threshold_percent" integer NOT NULL,
	"amount" bigint NOT NULL,
	"observed" bigint NOT NULL,
	"stop_pending" boolean DEFAULT false NOT NULL,
	"paused_agent_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"paused_project_id" uuid,
	"approval_id" uuid,
	"resolution" text,
	"resolved_by_user_id" text,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "budget_scope_usage" (
	"company_id" uuid NOT NULL,
	"scope_type" text NOT NULL,
	"scope_id" uuid NOT NULL,
	"window_key" text NOT NULL,
	"billed_cents" bigint DEFAULT 0 NOT NULL,
	"tokens" bigint DEFAULT 0 NOT NULL,
	"runs" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "budget_scope_usage_scope_type_scope_id_window_key_pk" PRIMARY KEY("scope_type","scope_id","window_key")
);
--> statement-breakpoint
ALTER TABLE "budget_policies" ALTER COLUMN "amount_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "budget_incidents" ADD CONSTRAINT "budget_incidents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_incidents" ADD CONSTRAINT "budget_incidents_policy_id_budget_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."budget_policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_incidents" ADD CONSTRAINT "budget_incidents_approval_id_approvals_id_fk" FOREIGN KEY ("approval_id") REFERENCES "public"."approvals"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_scope_usage" ADD CONSTRAINT "budget_scope_usage_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "budget_incidents_open_uq" ON "budget_incidents" USING btree ("policy_id","window_key","kind") WHERE "budget_incidents"."status" = 'open';--> statement-breakpoint
CREATE INDEX "budget_incidents_stop_pending_idx" ON "budget_incidents" USING btree ("created_at") WHERE "budget_incidents"."stop_pending";--> statement-breakpoint
CREATE INDEX "budget_incidents_company_open_idx" ON "budget_incidents" USING btree ("company_id","created_at") WHERE "budget_incidents"."status" = 'open';--> statement-breakpoint
CREATE INDEX "budget_scope_usage_company_idx" ON "budget_scope_usage" USING btree ("company_id","window_key");--> statement-breakpoint
-- Budgets live in policies only. A pending hire's budget (its policy used to wait for the approval)
-- and any budget without an active policy become policies before the columns go.
INSERT INTO "budget_policies" ("company_id","scope_type","scope_id","metric","window_kind","amount_cents")
  SELECT a."company_id", 'agent', a."id", 'billed_cents', 'calendar_month_utc', a."budget_monthly_cents" FROM "agents" a
  WHERE a."budget_monthly_cents" > 0 AND a."status" <> 'terminated' AND NOT EXISTS (
    SELECT 1 FROM "budget_policies" p WHERE p."scope_type" = 'agent' AND p."scope_id" = a."id" AND p."metric" = 'billed_cents' AND p."window_kind" = 'calendar_month_utc' AND p."is_active");--> statement-breakpoint
INSERT INTO "budget_policies" ("company_id","scope_type","scope_id","metric","window_kind","amount_cents")
  SELECT c."id", 'company', c."id", 'billed_cents', 'calendar_month_utc', c."budget_monthly_cents" FROM "companies" c
  WHERE c."budget_monthly_cents" > 0 AND NOT EXISTS (
    SELECT 1 FROM "budget_policies" p WHERE p."scope_type" = 'company' AND p."scope_id" = c."id" AND p."metric" = 'billed_cents' AND p."window_kind" = 'calendar_month_utc' AND p."is_active");--> statement-breakpoint
-- Scope usage from what is recorded: cost events (cents, tokens) and started runs, per UTC month and lifetime.
INSERT INTO "budget_scope_usage" ("company_id","scope_type","scope_id","window_key","billed_cents","tokens")
  SELECT e."company_id", s."scope_type", s."scope_id", w."window_key", sum(e."cost_cents"), sum(e."input_tokens" + e."output_tokens")
  FROM "cost_events" e
  CROSS JOIN LATERAL (VALUES ('company', e."company_id"), ('agent', e."agent_id"), ('project', e."project_id")) AS s("scope_type", "scope_id")
  CROSS JOIN LATERAL (VALUES (to_char(e."occurred_at" AT TIME ZONE 'UTC', 'YYYY-MM')), ('lifetime')) AS w("window_key")
  WHERE s."scope_id" IS NOT NULL
  GROUP BY e."company_id", s."scope_type", s."scope_id", w."window_key";--> statement-breakpoint
INSERT INTO "budget_scope_usage" AS u ("company_id","scope_type","scope_id","window_key","runs")
  SELECT r."company_id", s."scope_type", s."scope_id", w."window_key", count(*)
  FROM "heartbeat_runs" r
  LEFT JOIN "issues" i ON i."id" = r."issue_id"
  CROSS JOIN LATERAL (VALUES ('company', r."company_id"), ('agent', r."agent_id"), ('project', i."project_id")) AS s("scope_type", "scope_id")
  CROSS JOIN LATERAL (VALUES (to_char(r."started_at" AT TIME ZONE 'UTC', 'YYYY-MM')), ('lifetime')) AS w("window_key")
  WHERE r."started_at" IS NOT NULL AND r."finished_at" IS NOT NULL AND s."scope_id" IS NOT NULL
  GROUP BY r."company_id", s."scope_type", s."scope_id", w."window_key"
  ON CONFLICT ("scope_type","scope_id","window_key") DO UPDATE SET "runs" = EXCLUDED."runs";--> statement-breakpoint
ALTER TABLE "agents" DROP COLUMN "budget_monthly_cents";--> statement-breakpoint
ALTER TABLE "agents" DROP COLUMN "spent_monthly_cents";--> statement-breakpoint
ALTER TABLE "agents" DROP COLUMN "spent_month";--> statement-breakpoint
ALTER TABLE "companies" DROP COLUMN "budget_monthly_cents";--> statement-breakpoint
ALTER TABLE "companies" DROP COLUMN "spent_monthly_cents";--> statement-breakpoint
ALTER TABLE "companies" DROP COLUMN "spent_month";