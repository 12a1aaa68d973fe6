CREATE TABLE "plugin_event_cursors" (
	"plugin_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"tx_id" bigint NOT NULL,
	"entry_id" uuid NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plugin_event_cursors_plugin_id_company_id_pk" PRIMARY KEY("plugin_id","company_id")
);
--> statement-breakpoint
CREATE TABLE "plugin_webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"plugin_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"webhook_key" text NOT NULL,
	"status" text DEFAULT 'received' NOT NULL,
	"method" text NOT NULL,
	"headers" jsonb NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "plugin_webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"plugin_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"webhook_key" text NOT NULL,
	"endpoint_key" text NOT NULL,
	"secret_version" integer DEFAULT 0 NOT NULL,
	"secret_iv" text,
	"secret_auth_tag" text,
	"secret_ciphertext" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rotated_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "plugin_event_cursors" ADD CONSTRAINT "plugin_event_cursors_plugin_id_plugins_id_fk" FOREIGN KEY ("plugin_id") REFERENCES "public"."plugins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plugin_event_cursors" ADD CONSTRAINT "plugin_event_cursors_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plugin_webhook_deliveries" ADD CONSTRAINT "plugin_webhook_deliveries_plugin_id_plugins_id_fk" FOREIGN KEY ("plugin_id") REFERENCES "public"."plugins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plugin_webhook_deliveries" ADD CONSTRAINT "plugin_webhook_deliveries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plugin_webhook_endpoints" ADD CONSTRAINT "plugin_webhook_endpoints_plugin_id_plugins_id_fk" FOREIGN KEY ("plugin_id") REFERENCES "public"."plugins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plugin_webhook_endpoints" ADD CONSTRAINT "plugin_webhook_endpoints_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plugin_webhook_deliveries_received_idx" ON "plugin_webhook_deliveries" USING btree ("created_at") WHERE "plugin_webhook_deliveries"."status" = 'received';--> statement-breakpoint
CREATE INDEX "plugin_webhook_deliveries_claimed_idx" ON "plugin_webhook_deliveries" USING btree ("claimed_at") WHERE "plugin_webhook_deliveries"."status" = 'delivering';--> statement-breakpoint
CREATE INDEX "plugin_webhook_deliveries_plugin_idx" ON "plugin_webhook_deliveries" USING btree ("plugin_id","company_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "plugin_webhook_endpoints_endpoint_key_uq" ON "plugin_webhook_endpoints" USING btree ("endpoint_key");--> statement-breakpoint
CREATE UNIQUE INDEX "plugin_webhook_endpoints_slot_uq" ON "plugin_webhook_endpoints" USING btree ("plugin_id","company_id","webhook_key");--> statement-breakpoint
CREATE INDEX "plugin_webhook_endpoints_company_idx" ON "plugin_webhook_endpoints" USING btree ("company_id");