CREATE TABLE "heartbeat_run_log_chunks" (
	"run_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"byte_offset" integer NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "heartbeat_run_log_chunks_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
ALTER TABLE "heartbeat_run_log_chunks" ADD CONSTRAINT "heartbeat_run_log_chunks_run_id_heartbeat_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."heartbeat_runs"("id") ON DELETE cascade ON UPDATE no action;