import { describe, expect, it } from 'vitest';
import { type ActiveContentFinding, ActiveContentScanner } from '../src/active-content-scanner';
import { makeZip, noiseBytes } from './fixtures';

function scan(bytes: Buffer, chunkSize = 64 * 1024): ActiveContentFinding | undefined {
  const scanner = new ActiveContentScanner();
  for (let at = 0; at < bytes.length; at += chunkSize) scanner.push(bytes.subarray(at, at + chunkSize));
  return scanner.finish();
}

const embedded = (payload: Buffer | string, at = 5000) =>
  Buffer.concat([noiseBytes(at, 11), Buffer.from(payload), noiseBytes(5000, 12)]);

describe('ActiveContentScanner', () => {
  it.each([
    ['script', '<script>alert(1)</script>'],
    ['script', '<SCRIPT SRC=//x.example>'],
    ['html', '<html lang="en">'],
    ['html', '<HTML><HEAD><TITLE>'],
    ['php', '<?php echo 1; ?>'],
    ['php', '<?PHP\nsystem($x);'],
    ['svg', '<svg onload="alert(1)">'],
    ['svg', '<svg/onload=alert(1)>'],
    ['svg', '<svg><a href="javascript:x()">'],
    ['pdf', '%PDF-1.7\n'],
  ])('finds %s in %j', (kind, payload) => {
    expect(scan(embedded(payload))).toEqual({ kind, offset: 5000 });
  });

  it('finds a ZIP local file header', () => {
    expect(scan(embedded(makeZip('a.txt', 'x')))).toEqual({ kind: 'zip', offset: 5000 });
  });

  it('finds a signature split across chunks, at every split point', () => {
    const bytes = embedded('<svg onload="alert(1)">', 100);
    for (let chunkSize = 1; chunkSize <= 130; chunkSize++) {
      expect(scan(bytes, chunkSize)).toEqual({ kind: 'svg', offset: 100 });
    }
  });

  it('finds a signature in the last bytes of the file', () => {
    expect(scan(Buffer.concat([noiseBytes(10_000, 5), Buffer.from('<script')]))).toEqual({
      kind: 'script',
      offset: 10_000,
    });
  });

  it('reports the first of several findings', () => {
    const bytes = Buffer.concat([noiseBytes(300, 1), Buffer.from('%PDF-1.4 <script>'), noiseBytes(300, 2)]);
    expect(scan(bytes, 10)).toEqual({ kind: 'pdf', offset: 300 });
  });

  it.each([
    ['<svg followed by binary', Buffer.concat([Buffer.from('<svg '), Buffer.from([0x00, 0x9c, 0x3e])])],
    ['<svg> followed by binary', Buffer.concat([Buffer.from('<svg>abc'), Buffer.from([0x00, 0x9c, 0x3e])])],
    ['<svgz, another word', '<svgz>'],
    ['<htmlx', '<htmlx>'],
    ['<?phpx', '<?phpx '],
    ['%PDF- without a version', '%PDF-x'],
    ['PK\\3\\4 without a known method', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x41, 0x42])],
  ])('ignores %s', (_name, payload) => {
    expect(scan(embedded(payload))).toBeUndefined();
  });

  it('finds nothing in 64 MiB of noise, which compressed image data resembles', () => {
    const scanner = new ActiveContentScanner();
    for (let seed = 1; seed <= 64; seed++) scanner.push(noiseBytes(1024 * 1024, seed * 7919));
    expect(scanner.finish()).toBeUndefined();
  });
});
