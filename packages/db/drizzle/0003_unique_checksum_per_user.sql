DROP INDEX "images_user_id_checksum_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "images_user_id_checksum_key" ON "images" USING btree ("user_id","checksum");