ALTER TABLE "filename_history" ADD COLUMN "by" uuid;--> statement-breakpoint
ALTER TABLE "filename_history" ADD COLUMN "seq" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "filename_history_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
ALTER TABLE "filename_history" ADD CONSTRAINT "filename_history_by_users_id_fk" FOREIGN KEY ("by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "filename_history_by_idx" ON "filename_history" USING btree ("by");