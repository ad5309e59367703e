const PROBE_BYTES = 8;

/**
 * Watches the bytes after an image as they stream past, keeping only what the declarations need: a few
 * bytes at offsets known in advance (where a video should start) and the last `tailBytes` (Samsung's
 * directory sits at the end). Its buffers are fixed in size, whatever the length of the trailer.
 */
export class TrailerWatch {
  readonly #probes = new Map<number, { bytes: Buffer; filled: number }>();
  readonly #tailBytes: number;
  #tail: Buffer | undefined;
  #tailFilled = 0;
  #position: number;

  /** `start` is the file offset of the first trailing byte; `probeOffsets` are file offsets too. */
  constructor(
    readonly start: number,
    probeOffsets: readonly number[],
    tailBytes: number,
  ) {
    this.#position = start;
    this.#tailBytes = tailBytes;
    for (const offset of probeOffsets) this.#probes.set(offset, { bytes: Buffer.alloc(PROBE_BYTES), filled: 0 });
  }

  /** The file offset just past the last byte seen: the file's size once every piece has been pushed. */
  get end(): number {
    return this.#position;
  }

  push(piece: Buffer): void {
    for (const [offset, probe] of this.#probes) {
      const from = offset + probe.filled - this.#position;
      if (probe.filled < PROBE_BYTES && from >= 0 && from < piece.length) {
        probe.filled += piece.copy(probe.bytes, probe.filled, from, from + PROBE_BYTES - probe.filled);
      }
    }
    this.#keepTail(piece);
    this.#position += piece.length;
  }

  /** The 8 bytes at a probed offset, or fewer if the file ends first. */
  probe(offset: number): Buffer {
    const probe = this.#probes.get(offset);
    return probe ? probe.bytes.subarray(0, probe.filled) : Buffer.alloc(0);
  }

  /** The last bytes of the trailer (at most `tailBytes`). */
  tail(): Buffer {
    return this.#tail ? this.#tail.subarray(this.#tail.length - this.#tailFilled) : Buffer.alloc(0);
  }

  #keepTail(piece: Buffer): void {
    this.#tail ??= Buffer.alloc(this.#tailBytes);
    const tail = this.#tail;
    const kept = Math.min(piece.length, tail.length);
    tail.copyWithin(0, kept);
    piece.copy(tail, tail.length - kept, piece.length - kept);
    this.#tailFilled = Math.min(tail.length, this.#tailFilled + kept);
  }
}
