export class UnexpectedEndError extends Error {
  constructor() {
    super('the file ends before the image does');
  }
}

/**
 * Pull-style reader over a stream of chunks, for walking a file's structure without loading it:
 * it keeps at most the current chunk (plus a few bytes of the previous one when a read spans two).
 */
export class ByteReader {
  readonly #chunks: AsyncIterator<Buffer>;
  #buffer: Buffer = Buffer.alloc(0);
  #index = 0;
  #consumedBefore = 0;
  #ended = false;

  constructor(chunks: AsyncIterable<Buffer>) {
    this.#chunks = chunks[Symbol.asyncIterator]();
  }

  get position(): number {
    return this.#consumedBefore + this.#index;
  }

  async u8(): Promise<number> {
    if (!(await this.#ensure(1))) throw new UnexpectedEndError();
    return this.#buffer[this.#index++]!;
  }

  async u16be(): Promise<number> {
    return (await this.bytes(2)).readUInt16BE(0);
  }

  async u32be(): Promise<number> {
    return (await this.bytes(4)).readUInt32BE(0);
  }

  async bytes(count: number): Promise<Buffer> {
    if (!(await this.#ensure(count))) throw new UnexpectedEndError();
    const bytes = Buffer.from(this.#buffer.subarray(this.#index, this.#index + count));
    this.#index += count;
    return bytes;
  }

  /** Up to `count` bytes without consuming them; fewer only at the end of the file. */
  async peek(count: number): Promise<Buffer> {
    await this.#ensure(count);
    return Buffer.from(this.#buffer.subarray(this.#index, this.#index + count));
  }

  async skip(count: number): Promise<void> {
    let remaining = count;
    while (remaining > 0) {
      if (!(await this.#ensure(1))) throw new UnexpectedEndError();
      const step = Math.min(remaining, this.#buffer.length - this.#index);
      this.#index += step;
      remaining -= step;
    }
  }

  /** Advances to the next occurrence of `byte`, leaving it unread. */
  async skipUntil(byte: number): Promise<void> {
    for (;;) {
      if (!(await this.#ensure(1))) throw new UnexpectedEndError();
      const found = this.#buffer.indexOf(byte, this.#index);
      if (found !== -1) {
        this.#index = found;
        return;
      }
      this.#index = this.#buffer.length;
    }
  }

  /**
   * Advances to what `find` looks for, without an await per byte. `find` searches `bytes` from `from` and
   * returns the index where it stops and whether it found it there; when not, the bytes from that index on
   * are kept and searched again once the next chunk has arrived (for a match that may span two chunks).
   */
  async seek(find: (bytes: Buffer, from: number) => { at: number; found: boolean }): Promise<void> {
    let wanted = 1;
    for (;;) {
      if (!(await this.#ensure(wanted))) throw new UnexpectedEndError();
      const { at, found } = find(this.#buffer, this.#index);
      this.#index = at;
      if (found) return;
      wanted = this.#buffer.length - at + 1;
    }
  }

  /** Consumes everything left, handing each piece to `visit`. */
  async drain(visit: (bytes: Buffer) => void): Promise<void> {
    while (await this.#ensure(1)) {
      visit(this.#buffer.subarray(this.#index));
      this.#index = this.#buffer.length;
    }
  }

  async close(): Promise<void> {
    await this.#chunks.return?.();
  }

  async #ensure(count: number): Promise<boolean> {
    while (this.#buffer.length - this.#index < count) {
      if (this.#ended) return false;
      const next = await this.#chunks.next();
      if (next.done) {
        this.#ended = true;
        return false;
      }
      const rest = this.#buffer.subarray(this.#index);
      this.#consumedBefore += this.#index;
      this.#buffer = rest.length === 0 ? next.value : Buffer.concat([rest, next.value]);
      this.#index = 0;
    }
    return true;
  }
}
