CREATE TABLE "plugin_blobs" (
	"sha256" text PRIMARY KEY NOT NULL,
	"size" integer NOT NULL,
	"bytes" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plugin_company_enablements" (
	"plugin_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"status" text NOT NULL,
	"capabilities" jsonb NOT NULL,
	"consented_by_user_id" uuid,
	"consented_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plugin_company_enablements_plugin_id_company_id_pk" PRIMARY KEY("plugin_id","company_id")
);
--> statement-breakpoint
CREATE TABLE "plugins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"plugin_key" text NOT NULL,
	"package_name" text NOT NULL,
	"version" text NOT NULL,
	"status" text DEFAULT 'ready' NOT NULL,
	"manifest" jsonb NOT NULL,
	"files" jsonb NOT NULL,
	"total_bytes" integer NOT NULL,
	"source" jsonb NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plugins_plugin_key_unique" UNIQUE("plugin_key")
);
--> statement-breakpoint
ALTER TABLE "plugin_company_enablements" ADD CONSTRAINT "plugin_company_enablements_plugin_id_plugins_id_fk" FOREIGN KEY ("plugin_id") REFERENCES "public"."plugins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plugin_company_enablements" ADD CONSTRAINT "plugin_company_enablements_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plugin_company_enablements_company_idx" ON "plugin_company_enablements" USING btree ("company_id");