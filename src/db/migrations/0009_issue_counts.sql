CREATE TABLE "company_issue_counts" (
	"company_id" uuid NOT NULL,
	"status" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "company_issue_counts_company_id_status_pk" PRIMARY KEY("company_id","status")
);
--> statement-breakpoint
ALTER TABLE "company_issue_counts" ADD CONSTRAINT "company_issue_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Counts of the issues already there; the trigger (src/db/sql/issue-counts.sql) keeps them from now on.
INSERT INTO "company_issue_counts" ("company_id","status","count") SELECT "company_id", "status", count(*) FROM "issues" GROUP BY "company_id", "status";
