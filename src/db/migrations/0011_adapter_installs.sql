CREATE TABLE "adapter_installs" (
	"type" text PRIMARY KEY NOT NULL,
	"package_name" text,
	"version" text,
	"local_path" text,
	"install_dir" text,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"override" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
