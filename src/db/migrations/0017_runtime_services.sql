CREATE TABLE "workspace_runtime_services" (
	"workspace_id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"owner_replica" text,
	"owner_boot" text,
	"lease_expires_at" timestamp with time zone,
	"status" text DEFAULT 'stopped' NOT NULL,
	"pid" integer,
	"started_at" timestamp with time zone,
	"exit_code" integer,
	"restarts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"log" text DEFAULT '' NOT NULL,
	"log_written" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspace_runtime_services" ADD CONSTRAINT "workspace_runtime_services_workspace_id_project_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."project_workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_runtime_services" ADD CONSTRAINT "workspace_runtime_services_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workspace_runtime_services_owner_idx" ON "workspace_runtime_services" USING btree ("owner_replica","owner_boot");--> statement-breakpoint
CREATE INDEX "project_workspaces_desired_running_idx" ON "project_workspaces" USING btree ("id") WHERE "project_workspaces"."desired_state" = 'running';--> statement-breakpoint
CREATE INDEX "workspace_operations_requested_idx" ON "workspace_operations" USING btree ("workspace_id") WHERE "workspace_operations"."status" = 'requested';