CREATE TABLE "plugin_job_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"plugin_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"job_key" text NOT NULL,
	"fire_at" timestamp with time zone NOT NULL,
	"trigger" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plugin_job_schedules" (
	"plugin_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"job_key" text NOT NULL,
	"cron" text NOT NULL,
	"timezone" text NOT NULL,
	"next_fire_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plugin_job_schedules_plugin_id_company_id_job_key_pk" PRIMARY KEY("plugin_id","company_id","job_key")
);
--> statement-breakpoint
ALTER TABLE "plugin_job_runs" ADD CONSTRAINT "plugin_job_runs_plugin_id_plugins_id_fk" FOREIGN KEY ("plugin_id") REFERENCES "public"."plugins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plugin_job_runs" ADD CONSTRAINT "plugin_job_runs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plugin_job_schedules" ADD CONSTRAINT "plugin_job_schedules_plugin_id_plugins_id_fk" FOREIGN KEY ("plugin_id") REFERENCES "public"."plugins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plugin_job_schedules" ADD CONSTRAINT "plugin_job_schedules_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "plugin_job_runs_fire_uq" ON "plugin_job_runs" USING btree ("plugin_id","company_id","job_key","fire_at");--> statement-breakpoint
CREATE UNIQUE INDEX "plugin_job_runs_live_uq" ON "plugin_job_runs" USING btree ("plugin_id","company_id","job_key") WHERE "plugin_job_runs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "plugin_job_runs_claim_idx" ON "plugin_job_runs" USING btree ("lease_expires_at") WHERE "plugin_job_runs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "plugin_job_runs_job_idx" ON "plugin_job_runs" USING btree ("plugin_id","company_id","job_key","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "plugin_job_schedules_due_idx" ON "plugin_job_schedules" USING btree ("next_fire_at") WHERE "plugin_job_schedules"."next_fire_at" is not null;--> statement-breakpoint
CREATE INDEX "plugin_job_schedules_company_idx" ON "plugin_job_schedules" USING btree ("company_id");