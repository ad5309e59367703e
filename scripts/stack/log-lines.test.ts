import { describe, expect, it } from 'vitest';
import { formatLogLine } from './log-lines';

const at = new Date(2025, 0, 2, 3, 4, 5, 6).toISOString();

describe('formatLogLine', () => {
  it('shows time, level and message, then the other fields as key=value', () => {
    const line = JSON.stringify({
      level: 30,
      time: at,
      pid: 1,
      hostname: 'h',
      service: 'api',
      requestId: 'r-1',
      res: { statusCode: 200 },
      responseTime: 1.5,
      msg: 'request completed',
    });
    expect(formatLogLine(line)).toEqual([
      '03:04:05.006 INFO  request completed requestId=r-1 res.statusCode=200 responseTime=1.5',
    ]);
  });

  it('quotes values with spaces and prints an error stack on lines of its own', () => {
    const err = { type: 'Error', message: 'boom', stack: 'Error: boom\n    at f (x.ts:1:1)' };
    const lines = formatLogLine(JSON.stringify({ level: 50, time: at, msg: 'failed', path: 'a b', err }));
    expect(lines).toEqual([
      '03:04:05.006 ERROR failed path="a b" err.type=Error',
      '    Error: boom',
      '        at f (x.ts:1:1)',
    ]);
  });

  it('leaves lines that are not pino JSON alone', () => {
    expect(formatLogLine('api failed to start: port 3000 in use')).toEqual(['api failed to start: port 3000 in use']);
    expect(formatLogLine('{"not":"a log line"}')).toEqual(['{"not":"a log line"}']);
  });
});
