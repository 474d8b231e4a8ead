/**
 * Errors a caller can act on. Each says what was wrong and where; none of them means the repository
 * is damaged. (RefConflictError, the stale-save case, lives in ./types beside the contract.)
 */

const BRANDS = Symbol.for("field-notes.store-error-brands");

/**
 * The base of the store's errors. A production server bundle can hold two copies of this module
 * (one per layer: pages and route handlers) that share one store instance through globalThis, so
 * an error thrown by one copy must still satisfy `instanceof` with the other copy's class. Each
 * class names itself in `brand` (class names do not survive minification), and `instanceof` also
 * accepts an error that carries that brand.
 */
export class StoreError extends Error {
  static readonly brand: string = "StoreError";

  constructor(message: string) {
    super(message);
    const brands: string[] = [];
    for (let c = new.target as unknown as { brand?: string } | null; c && c.brand; c = Object.getPrototypeOf(c)) brands.push(c.brand);
    Object.defineProperty(this, BRANDS, { value: brands });
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    const brands = typeof value === "object" && value !== null ? (value as Record<symbol, unknown>)[BRANDS] : undefined;
    return Array.isArray(brands) && brands.includes((this as unknown as { brand: string }).brand);
  }
}

/** The request itself is wrong (bad path, empty change set, bad ref name): a 4xx, not a retry. */
export class StoreRequestError extends StoreError {
  static override readonly brand: string = "StoreRequestError";
  constructor(message: string) {
    super(message);
    this.name = "StoreRequestError";
  }
}

/** A ref, branch name or commit id that the repository does not have. */
export class UnknownRevisionError extends StoreError {
  static override readonly brand: string = "UnknownRevisionError";
  constructor(readonly revision: string) {
    super(`the content repository has no revision "${revision}"`);
    this.name = "UnknownRevisionError";
  }
}

/**
 * A live writer held the ref's lock for longer than we were willing to wait. (A stale lock, left
 * by a writer that died, is removed instead: see ./ref-lock.)
 */
export class RefLockedError extends StoreError {
  static override readonly brand: string = "RefLockedError";
  constructor(
    readonly ref: string,
    readonly lockFile: string,
    waitedMs: number,
    holder = "another writer",
  ) {
    super(`${ref} is being written by ${holder}: ${lockFile} was still there after ${waitedMs} ms; try again in a moment`);
    this.name = "RefLockedError";
  }
}

/** An object the repository should have is missing or unreadable: the repository needs a look. */
export class CorruptRepositoryError extends StoreError {
  static override readonly brand: string = "CorruptRepositoryError";
  constructor(message: string) {
    super(message);
    this.name = "CorruptRepositoryError";
  }
}
