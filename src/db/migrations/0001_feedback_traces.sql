CREATE TABLE "feedback_traces" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"issue_id" uuid,
	"project_id" uuid,
	"vote" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"shared_at" timestamp with time zone,
	"payload" jsonb,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "feedback_traces" ADD CONSTRAINT "feedback_traces_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "feedback_traces_company_created_idx" ON "feedback_traces" USING btree ("company_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "feedback_traces_company_issue_idx" ON "feedback_traces" USING btree ("company_id","issue_id");