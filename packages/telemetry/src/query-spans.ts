import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type postgres from 'postgres';

const tracer = trace.getTracer('@renamer/telemetry');

/** `select`, `insert`…: the statement's first word, which names the span (the text itself may hold names). */
const operationOf = (query: string) => /^\s*(\w+)/.exec(query)?.[1]?.toLowerCase() ?? 'query';

/**
 * A span for each statement drizzle runs (`unsafe`, on the pool and in transactions): postgres.js is not what the
 * pg instrumentation sees. The statement's text goes with it, never its parameters. Only used while tracing is on.
 */
export function withQuerySpans(sql: postgres.Sql): postgres.Sql {
  const unsafe = sql.unsafe.bind(sql);
  sql.unsafe = ((
    query: string,
    parameters?: postgres.ParameterOrJSON<never>[],
    options?: postgres.UnsafeQueryOptions,
  ) => {
    const operation = operationOf(query);
    const span = tracer.startSpan(`postgresql ${operation}`, {
      kind: SpanKind.CLIENT,
      attributes: { 'db.system.name': 'postgresql', 'db.operation.name': operation, 'db.query.text': query },
    });
    const pending = unsafe(query, parameters, options);
    // postgres.js sends a query when it is first awaited (after `.values()` and the like were chained).
    pending.then(
      () => span.end(),
      (error: Error) => {
        span.recordException(error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
        span.end();
      },
    );
    return pending;
  }) as postgres.Sql['unsafe'];
  // A transaction's own handle has no `begin`: its queries are wrapped above.
  if (typeof sql.begin !== 'function') return sql;
  const begin = sql.begin.bind(sql) as (...args: unknown[]) => Promise<unknown>;
  sql.begin = ((...args: unknown[]) => {
    const run = args.pop() as (tx: postgres.TransactionSql) => unknown;
    return begin(...args, (tx: postgres.TransactionSql) =>
      run(withQuerySpans(tx as unknown as postgres.Sql) as unknown as postgres.TransactionSql),
    );
  }) as postgres.Sql['begin'];
  return sql;
}
