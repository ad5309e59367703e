/** The key (or prefix) breaks the key rules; raised before any I/O. */
export class InvalidObjectKeyError extends Error {
  override readonly name = 'InvalidObjectKeyError';
  constructor(
    readonly key: unknown,
    reason: string,
  ) {
    super(`Invalid object key ${describe(key)}: ${reason}`);
  }
}

export class ObjectNotFoundError extends Error {
  override readonly name = 'ObjectNotFoundError';
  constructor(readonly key: string) {
    super(`Object not found: ${key}`);
  }
}

/** The requested byte range starts at or past the end of the object. */
export class InvalidRangeError extends Error {
  override readonly name = 'InvalidRangeError';
  constructor(
    readonly key: string,
    readonly offset: number,
  ) {
    super(`Range starting at byte ${offset} is not satisfiable for ${key}`);
  }
}

/** The stream given to `put` did not hold exactly the declared number of bytes. */
export class ObjectSizeMismatchError extends Error {
  override readonly name = 'ObjectSizeMismatchError';
  constructor(
    readonly expected: number,
    readonly received: number,
    complete: boolean,
  ) {
    super(`Expected ${expected} bytes, ${complete ? 'got' : 'got at least'} ${received}`);
  }
}

function describe(key: unknown): string {
  if (typeof key !== 'string') return `of type ${typeof key}`;
  return JSON.stringify(key.length > 100 ? `${key.slice(0, 100)}…` : key);
}
