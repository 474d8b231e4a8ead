import { describe, expect, it } from "vitest";
import { NothingToCommitError } from "./commit";
import { RefLockedError, StoreError, StoreRequestError, UnknownRevisionError } from "./errors";
import { RefConflictError } from "./types";

/**
 * A server bundle may load the store module twice (one copy per layer) while both share one store
 * instance; an error from one copy must still be recognised by the other's `instanceof`, or a stale
 * save turns into a 500 instead of a 409.
 */
describe("store errors across module copies", () => {
  it("are recognised by brand, not only by class identity", () => {
    const e = new RefConflictError("refs/heads/main", null, "a".repeat(40));
    // The same error as another copy of the module makes it: same brand, not this class's prototype.
    const foreign = Object.create(Error.prototype, Object.getOwnPropertyDescriptors(e)) as Error;
    for (const s of Object.getOwnPropertySymbols(e)) Object.defineProperty(foreign, s, Object.getOwnPropertyDescriptor(e, s)!);
    expect(Object.getPrototypeOf(foreign)).toBe(Error.prototype);
    expect(foreign instanceof RefConflictError).toBe(true);
    expect(foreign instanceof StoreError).toBe(true);
    expect(foreign instanceof StoreRequestError).toBe(false);
    expect(Object.create(Error.prototype) instanceof RefConflictError).toBe(false);
  });

  it("keep their family: a no-op commit is a request error, a lock is not a conflict", () => {
    const noop = new NothingToCommitError("refs/heads/main");
    expect(noop instanceof StoreRequestError).toBe(true);
    expect(noop instanceof StoreError).toBe(true);
    expect(new RefLockedError("refs/heads/main", "main.lock", 2000) instanceof RefConflictError).toBe(false);
    expect(new UnknownRevisionError("x") instanceof StoreRequestError).toBe(false);
    expect(new Error("plain") instanceof StoreError).toBe(false);
  });
});
