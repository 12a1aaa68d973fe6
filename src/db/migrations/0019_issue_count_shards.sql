ALTER TABLE "company_issue_counts" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "company_issue_counts" DROP CONSTRAINT "company_issue_counts_company_id_status_pk";--> statement-breakpoint
ALTER TABLE "company_issue_counts" ADD CONSTRAINT "company_issue_counts_company_id_status_shard_pk" PRIMARY KEY("company_id","status","shard");
