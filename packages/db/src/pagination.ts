import { AppError } from '@renamer/contracts';
import { type AnyColumn, and, asc, desc, eq, gt, lt, or, type SQL } from 'drizzle-orm';

/** A page of a keyset-paginated list; `nextCursor` is null on the last page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface PageParams {
  /** 1..100, default 50; out-of-range values are clamped. */
  limit?: number;
  /** The opaque `nextCursor` of the previous page. */
  cursor?: string | null;
}

/** A cursor this service did not issue: an AppError, so every service answers it with 400 `invalid_cursor`. */
export class InvalidCursorError extends AppError {
  override name = 'InvalidCursorError';
  constructor() {
    super('invalid_cursor', 'The cursor is not one this service issued; leave it out to start from the first page.');
  }
}

interface KeysetPosition {
  createdAt: Date;
  id: string;
}

interface KeysetColumns {
  createdAt: AnyColumn;
  id: AnyColumn;
}

type Direction = 'asc' | 'desc';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What `toISOString()` writes for the years PostgreSQL and JavaScript share; the cursor holds nothing else. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function pageSize(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_LIMIT;
  return Math.min(Math.max(Math.trunc(limit), 1), MAX_LIMIT);
}

export function encodeCursor(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id])).toString('base64url');
}

export function decodeCursor(cursor: string): KeysetPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw new InvalidCursorError();
  const [createdAtText, id] = parsed as unknown[];
  const createdAt = instantOf(createdAtText);
  if (!createdAt || typeof id !== 'string' || !UUID_PATTERN.test(id)) throw new InvalidCursorError();
  return { createdAt, id };
}

/** A position in a list sorted by an integer rank (such as a score) first, then (created_at, id). */
export interface RankedPosition extends KeysetPosition {
  rank: number;
}

export function encodeRankedCursor(position: RankedPosition): string {
  return Buffer.from(JSON.stringify([position.rank, position.createdAt.toISOString(), position.id])).toString(
    'base64url',
  );
}

export function decodeRankedCursor(cursor: string): RankedPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || !Number.isSafeInteger(parsed[0])) throw new InvalidCursorError();
  const [rank, createdAtText, id] = parsed as [number, unknown, unknown];
  const createdAt = instantOf(createdAtText);
  if (!createdAt || typeof id !== 'string' || !UUID_PATTERN.test(id)) throw new InvalidCursorError();
  return { rank, createdAt, id };
}

function instantOf(text: unknown): Date | undefined {
  if (typeof text !== 'string' || !ISO_INSTANT.test(text)) return undefined;
  const instant = new Date(text);
  // Round-tripping refuses days that do not exist (02-30); year 0 is valid in JavaScript only.
  if (Number.isNaN(instant.getTime()) || instant.toISOString() !== text || instant.getUTCFullYear() < 1) {
    return undefined;
  }
  return instant;
}

/** The rows strictly after the cursor in (created_at, id) order; undefined for the first page. */
function afterCursor(columns: KeysetColumns, cursor: string | null | undefined, direction: Direction): SQL | undefined {
  if (!cursor) return undefined;
  const position = decodeCursor(cursor);
  const beyond = direction === 'desc' ? lt : gt;
  return or(
    beyond(columns.createdAt, position.createdAt),
    and(eq(columns.createdAt, position.createdAt), beyond(columns.id, position.id)),
  );
}

export function keysetOrder(columns: KeysetColumns, direction: Direction): SQL[] {
  const by = direction === 'desc' ? desc : asc;
  return [by(columns.createdAt), by(columns.id)];
}

/** Turns `size + 1` fetched rows into a page: the extra row only signals that another page exists. */
export function toPage<T extends KeysetPosition>(rows: T[], size: number): Page<T> {
  const items = rows.slice(0, size);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > size && last ? encodeCursor(last) : null };
}

/** What keysetPage needs of a drizzle `$dynamic()` select whose rows are `Row`. */
interface KeysetQuery<Row> extends PromiseLike<Row[]> {
  where(condition: SQL | undefined): { orderBy(...order: SQL[]): { limit(count: number): PromiseLike<unknown[]> } };
}

/**
 * One page of a `$dynamic()` select in (created_at, id) order, among the rows all `filters` match: the
 * keyset query every list shares.
 */
export async function keysetPage<Row extends KeysetPosition>(
  query: KeysetQuery<Row>,
  columns: KeysetColumns,
  params: PageParams,
  direction: Direction,
  ...filters: (SQL | undefined)[]
): Promise<Page<Row>> {
  const size = pageSize(params.limit);
  // The dynamic builder's methods forget the row type the query was built with; it is the same rows.
  const rows = (await query
    .where(and(...filters, afterCursor(columns, params.cursor, direction)))
    .orderBy(...keysetOrder(columns, direction))
    .limit(size + 1)) as Row[];
  return toPage(rows, size);
}
