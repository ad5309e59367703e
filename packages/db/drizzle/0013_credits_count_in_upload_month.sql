ALTER TABLE "quota_credits" ADD COLUMN "counted_at" timestamp (3) with time zone;--> statement-breakpoint
UPDATE "quota_credits" SET "counted_at" = coalesce((SELECT "created_at" FROM "images" WHERE "images"."id" = "quota_credits"."image_id"), "quota_credits"."created_at");--> statement-breakpoint
ALTER TABLE "quota_credits" ALTER COLUMN "counted_at" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "quota_credits_user_id_counted_at_idx" ON "quota_credits" USING btree ("user_id","counted_at");
