CREATE TABLE "plugin_local_folders" (
	"plugin_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"folder_key" text NOT NULL,
	"path" text NOT NULL,
	"updated_by_user_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plugin_local_folders_plugin_id_company_id_folder_key_pk" PRIMARY KEY("plugin_id","company_id","folder_key")
);
--> statement-breakpoint
ALTER TABLE "plugins" ADD COLUMN "revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "plugin_local_folders" ADD CONSTRAINT "plugin_local_folders_plugin_id_plugins_id_fk" FOREIGN KEY ("plugin_id") REFERENCES "public"."plugins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plugin_local_folders" ADD CONSTRAINT "plugin_local_folders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;