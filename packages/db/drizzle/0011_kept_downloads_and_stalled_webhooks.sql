ALTER TABLE "downloads" DROP CONSTRAINT "downloads_target_matches_kind";--> statement-breakpoint
ALTER TABLE "downloads" DROP CONSTRAINT "downloads_batch_id_batches_id_fk";
--> statement-breakpoint
ALTER TABLE "downloads" DROP CONSTRAINT "downloads_image_id_images_id_fk";
--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_unsettled_idx" ON "webhook_deliveries" USING btree (coalesce("next_attempt_at", "created_at")) WHERE "webhook_deliveries"."status" <> 'delivered';--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_zip_names_no_image" CHECK ("downloads"."kind" = 'image' or "downloads"."image_id" is null);