/** Unique indexes that callers settle races with, by the name PostgreSQL reports. */
export const UNIQUE_FILENAME_PER_BATCH = 'images_batch_id_filename_key';
export const UNIQUE_FILE_PER_USER = 'images_user_id_checksum_key';

/** True when `error` is PostgreSQL refusing a row that the unique index `constraint` already holds. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const cause = (error as { cause?: { code?: string; constraint_name?: string } } | null)?.cause;
  return cause?.code === '23505' && cause.constraint_name === constraint;
}
