ALTER TABLE "batches" ADD COLUMN "context" text;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "seo" jsonb;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "safety" jsonb;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "perceptual_hash" text;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_context_length" CHECK (char_length("batches"."context") <= 500);--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_perceptual_hash_format" CHECK ("images"."perceptual_hash" ~ '^[0-9a-f]{16}$');