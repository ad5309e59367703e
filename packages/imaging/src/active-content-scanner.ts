export type ActiveContentKind = 'html' | 'script' | 'svg' | 'php' | 'pdf' | 'zip';

export interface ActiveContentFinding {
  kind: ActiveContentKind;
  offset: number;
}

const LESS_THAN = 0x3c;
const GREATER_THAN = 0x3e;
const SLASH = 0x2f;
const TEXT_AFTER_TAG = 8;
// Every rule below looks at most this many bytes past the position it starts at.
const LOOKAHEAD = 32;

const PDF_HEADER = Buffer.from('%PDF-', 'latin1');
const ZIP_LOCAL_FILE_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
// stored, shrunk, reduced 1-4, imploded, deflate, deflate64, bzip2, lzma, zstd, mp3, xz, jpeg, wavpack, ppmd, aes
const ZIP_METHODS = new Set([0, 1, 2, 3, 4, 5, 6, 8, 9, 12, 14, 93, 94, 95, 96, 97, 98, 99]);

const isWhitespace = (byte: number | undefined) =>
  byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d || byte === 0x0c;
const isTextual = (byte: number | undefined) =>
  byte !== undefined && ((byte >= 0x20 && byte <= 0x7e) || isWhitespace(byte));
const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39;

function startsWithIgnoringCase(bytes: Buffer, at: number, lowercase: string): boolean {
  if (at + lowercase.length > bytes.length) return false;
  for (let i = 0; i < lowercase.length; i++) {
    const byte = bytes[at + i]!;
    const folded = byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte;
    if (folded !== lowercase.charCodeAt(i)) return false;
  }
  return true;
}

function isTextFor(bytes: Buffer, from: number, length: number): boolean {
  for (let i = from; i < from + length; i++) if (!isTextual(bytes[i])) return false;
  return true;
}

/** `<name`, a byte that ends a tag name, then plain text, as markup has and noise rarely does. */
function isTagAt(bytes: Buffer, at: number, name: string, endsName: (byte: number | undefined) => boolean): boolean {
  const afterName = at + name.length;
  return (
    startsWithIgnoringCase(bytes, at, name) &&
    endsName(bytes[afterName]) &&
    isTextFor(bytes, afterName + 1, TEXT_AFTER_TAG)
  );
}

const endsElementName = (byte: number | undefined) => isWhitespace(byte) || byte === GREATER_THAN || byte === SLASH;

// Compressed image data is close to random, so short signatures alone would match by chance
// (a case-insensitive `<svg` about twice per GiB): the rules also demand what follows the
// signature in a real document. The README has the numbers.
function markupAt(bytes: Buffer, at: number): ActiveContentKind | undefined {
  if (startsWithIgnoringCase(bytes, at, '<script')) return 'script';
  if (isTagAt(bytes, at, '<html', endsElementName)) return 'html';
  if (isTagAt(bytes, at, '<svg', endsElementName)) return 'svg';
  if (isTagAt(bytes, at, '<?php', isWhitespace)) return 'php';
  return undefined;
}

function findMarkup(bytes: Buffer, from: number, to: number): ActiveContentFinding | undefined {
  for (let at = bytes.indexOf(LESS_THAN, from); at !== -1 && at < to; at = bytes.indexOf(LESS_THAN, at + 1)) {
    const kind = markupAt(bytes, at);
    if (kind) return { kind, offset: at };
  }
  return undefined;
}

function findPdf(bytes: Buffer, from: number, to: number): ActiveContentFinding | undefined {
  for (let at = bytes.indexOf(PDF_HEADER, from); at !== -1 && at < to; at = bytes.indexOf(PDF_HEADER, at + 1)) {
    if (isDigit(bytes[at + PDF_HEADER.length])) return { kind: 'pdf', offset: at };
  }
  return undefined;
}

function findZip(bytes: Buffer, from: number, to: number): ActiveContentFinding | undefined {
  const search = (start: number) => bytes.indexOf(ZIP_LOCAL_FILE_HEADER, start);
  for (let at = search(from); at !== -1 && at < to; at = search(at + 1)) {
    if (at + 10 <= bytes.length && ZIP_METHODS.has(bytes.readUInt16LE(at + 8))) return { kind: 'zip', offset: at };
  }
  return undefined;
}

function findFirst(bytes: Buffer, from: number, to: number): ActiveContentFinding | undefined {
  const findings = [findMarkup(bytes, from, to), findPdf(bytes, from, to), findZip(bytes, from, to)];
  return findings.reduce<ActiveContentFinding | undefined>(
    (first, finding) => (finding && (!first || finding.offset < first.offset) ? finding : first),
    undefined,
  );
}

/**
 * Looks for markup, PHP, PDF and ZIP signatures anywhere in a file fed to it chunk by chunk. Each
 * window is the new chunk plus the last LOOKAHEAD bytes of the previous one, so a signature split
 * across chunks is still seen, and every start position is examined exactly once. The window is
 * searched in two parts (the carried bytes with the chunk's first LOOKAHEAD bytes, then the chunk
 * itself), so a chunk is never copied.
 */
export class ActiveContentScanner {
  #carry: Buffer = Buffer.alloc(0);
  #carryOffset = 0;
  #finding: ActiveContentFinding | undefined;

  push(chunk: Buffer): void {
    if (this.#finding) return;
    if (chunk.length <= LOOKAHEAD) {
      this.#pushWindow(Buffer.concat([this.#carry, chunk]));
      return;
    }
    const seam = Buffer.concat([this.#carry, chunk.subarray(0, LOOKAHEAD)]);
    this.#record(findFirst(seam, 0, this.#carry.length));
    if (this.#finding) return;
    this.#carryOffset += this.#carry.length;
    this.#pushWindow(chunk);
  }

  /** The first signature found, once the whole file has been pushed. */
  finish(): ActiveContentFinding | undefined {
    if (!this.#finding) this.#record(findFirst(this.#carry, 0, this.#carry.length));
    return this.#finding;
  }

  /** Examines every start in `window` that has LOOKAHEAD bytes after it, and carries the rest. */
  #pushWindow(window: Buffer): void {
    const settled = window.length - LOOKAHEAD;
    if (settled <= 0) {
      this.#carry = window;
      return;
    }
    this.#record(findFirst(window, 0, settled));
    this.#carry = Buffer.from(window.subarray(settled));
    this.#carryOffset += settled;
  }

  #record(finding: ActiveContentFinding | undefined): void {
    if (finding) this.#finding = { kind: finding.kind, offset: this.#carryOffset + finding.offset };
  }
}
