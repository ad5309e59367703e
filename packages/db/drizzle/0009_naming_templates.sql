ALTER TABLE "batches" ADD COLUMN "template" text;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "instructions" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "template" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "instructions" text;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_template_length" CHECK (char_length("batches"."template") <= 200);--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_instructions_length" CHECK (char_length("batches"."instructions") <= 500);--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_template_length" CHECK (char_length("users"."template") <= 200);--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_instructions_length" CHECK (char_length("users"."instructions") <= 500);