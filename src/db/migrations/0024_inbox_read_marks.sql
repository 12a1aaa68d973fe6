CREATE TABLE "inbox_read_marks" (
	"company_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"item_key" text NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inbox_read_marks_company_id_user_id_item_key_pk" PRIMARY KEY("company_id","user_id","item_key")
);
--> statement-breakpoint
ALTER TABLE "inbox_read_marks" ADD CONSTRAINT "inbox_read_marks_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_company_action_idx" ON "activity_log" USING btree ("company_id","action","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "activity_company_actor_idx" ON "activity_log" USING btree ("company_id","actor_id","created_at" DESC NULLS LAST);