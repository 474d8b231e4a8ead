import type { ContentStore } from "@/lib/working-copy/content-store";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitPerson } from "@/lib/rules/identity";
import { formatTrailers, withTrailers } from "@/lib/rules/approval-trailers";
import type { ReviewRecord } from "@/lib/review/records";
import { appendRecord, newRecordId } from "@/lib/review/review-log";
import { ensureContentRepo } from "@/lib/store/api";
import { tempDir } from "@/lib/store/testing";
import { openContentStore } from "@/lib/working-copy/content-store";
import { approversOf } from "./approvers";

/** Approvers by display name, read from the verdict records the commit's trailers name on refs/reviews/<id>. */

const ID = "AFN-016";
let dir: string;
let store: ContentStore;
let revision: string;
const verdicts: Record<string, string> = {};

beforeAll(async () => {
  dir = tempDir("approvers");
  const gitdir = path.join(dir, "content.git");
  await ensureContentRepo(gitdir, path.resolve("content"));
  store = openContentStore(gitdir);
  revision = (await store.resolve("refs/heads/main"))!;
  // rita approves (her account id is not her name); sam asks for changes.
  const add = async (who: { id: string; name: string }, verdict: "approve" | "request-changes") => {
    const at = new Date().toISOString();
    const { record } = await appendRecord(store, ID, commitPerson(who), () => ({
      record: { v: 1, id: newRecordId(), at, by: who, kind: "verdict", revision, verdict, summary: `private words of ${who.id}` } as ReviewRecord,
      message: `${ID}: ${verdict}`,
    }));
    verdicts[who.id] = record.id;
  };
  await add({ id: "rita", name: "Rita Levi-Montalcini" }, "approve");
  await add({ id: "sam", name: "Sam Reviewer" }, "request-changes");
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const message = (...approvers: { reviewer: string; record: string }[]) =>
  withTrailers(`Publish ${ID}: promoted\n\nPromotion to verified checkpoint.`, formatTrailers({ draftRevision: revision, approvers }));

describe("approversOf", () => {
  it.each([
    ["an approval names its reviewer's display name", () => message({ reviewer: "rita", record: verdicts.rita! }), ["Rita Levi-Montalcini"]],
    ["a record that is not on the review leaves the account id", () => message({ reviewer: "ada", record: "0123456789ab" }), ["ada"]],
    ["a record by another account than the trailer says leaves the trailer's account id", () => message({ reviewer: "sam", record: verdicts.rita! }), ["sam"]],
    ["a request for changes is not an approval: the account id", () => message({ reviewer: "sam", record: verdicts.sam! }), ["sam"]],
    [
      "several approvers, in the trailers' order",
      () => message({ reviewer: "ada", record: "0123456789ab" }, { reviewer: "rita", record: verdicts.rita! }),
      ["ada", "Rita Levi-Montalcini"],
    ],
    ["a commit without trailers names nobody", () => `Publish ${ID}: Decision changed`, []],
  ])("%s", async (_name, text, names) => {
    expect(await approversOf(ID, text(), store)).toEqual(names);
  });

  it("a note with no review at all leaves the account id", async () => {
    expect(await approversOf("AFN-001", message({ reviewer: "rita", record: verdicts.rita! }), store)).toEqual(["rita"]);
  });
});
