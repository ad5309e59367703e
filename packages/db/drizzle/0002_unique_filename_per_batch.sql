DROP INDEX "images_batch_id_filename_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "images_batch_id_filename_key" ON "images" USING btree ("batch_id","filename");