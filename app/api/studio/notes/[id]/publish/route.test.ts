import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answer, noteFields, params, request, studioFixture, type Caller, type Json } from "@/lib/testing/studio";
import { getContentStore } from "@/lib/working-copy/content-store";
import * as list from "../../route";
import * as one from "../route";
import * as transitions from "../transitions/route";
import * as publish from "./route";

/**
 * Publishing when something else happens at the same moment, against a real content repository:
 * every note new to main takes an editorial order no other note holds, a publish interrupted
 * between main and the draft branch is finished by the next one, and each answer says what happened.
 */

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
});
afterAll(() => f.cleanup());

const git = (...args: string[]) => execFileSync("git", ["--git-dir", f.gitdir, ...args], { encoding: "utf8" }).trim();

const api = {
  create: (c: Caller) => list.POST(request(c, "POST", "/api/studio/notes", {}), params({})).then(answer),
  read: (c: Caller, id: string) => one.GET(request(c, "GET", `/api/studio/notes/${id}`), params({ id })).then(answer),
  save: (c: Caller, id: string, body: unknown) => one.PUT(request(c, "PUT", `/api/studio/notes/${id}`, body), params({ id })).then(answer),
  transition: (c: Caller, id: string, body: unknown) =>
    transitions.POST(request(c, "POST", `/api/studio/notes/${id}/transitions`, body), params({ id })).then(answer),
  publish: (c: Caller, id: string, body: unknown) => publish.POST(request(c, "POST", `/api/studio/notes/${id}/publish`, body), params({ id })).then(answer),
};

/** A new note saved and proposed as a hypothesis: ready to publish. */
async function proposed(title: string): Promise<{ id: string; revision: string }> {
  const created = await api.create(f.author);
  const saved = await api.save(f.author, created.body.id, { revision: created.body.revision, note: noteFields(title) });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const moved = await api.transition(f.author, created.body.id, { to: "hypothesis", revision: saved.body.revision });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  return { id: created.body.id, revision: moved.body.revision };
}

/** Every note on main with its editorial order. */
function ordersOnMain(): Map<string, number> {
  const out = new Map<string, number>();
  for (const file of git("ls-tree", "--name-only", "refs/heads/main", "notes/").split("\n")) {
    const order = /^order: (\d+)$/m.exec(git("show", `refs/heads/main:${file}`))?.[1];
    if (order) out.set(file.replace(/^notes\/|\.md$/g, ""), Number(order));
  }
  return out;
}

function expectDistinctOrders() {
  const orders = ordersOnMain();
  const seen = new Map<number, string>();
  const twins: string[] = [];
  for (const [id, order] of orders) {
    if (seen.has(order)) twins.push(`${seen.get(order)} and ${id} both have order ${order}`);
    seen.set(order, id);
  }
  expect(twins).toEqual([]);
}

/** Run `during` when the publish of `id` is about to delete its draft branch (after main moved). */
async function whenDraftIsDeleted<T>(id: string, during: () => Promise<void>, work: () => Promise<T>): Promise<T> {
  const store = await getContentStore();
  const original = store.updateRef;
  store.updateRef = async (ref, expected, next) => {
    if (ref === `refs/heads/drafts/${id}` && next === null) {
      store.updateRef = original;
      await during();
    }
    return original(ref, expected, next);
  };
  try {
    return await work();
  } finally {
    store.updateRef = original;
  }
}

describe("the editorial order of notes new to main", () => {
  it("a save racing a publish, then the retry the 409 suggests, keeps the order main gave the note", async () => {
    // Both drafts took the same order when they were created (neither was on main yet).
    const first = await proposed("Published first");
    const raced = await proposed("Published while being saved");
    expect((await api.publish(f.author, first.id, { revision: first.revision })).status).toBe(200);

    const latest = await api.read(f.author, raced.id);
    const published = await whenDraftIsDeleted(
      raced.id,
      async () => {
        // Someone saves the draft between the publish's commit on main and its deletion of the branch.
        const saved = await api.save(f.secondAuthor, raced.id, {
          revision: latest.body.revision,
          note: { ...latest.body.fields, tags: ["sparse attention", "race"] },
        });
        expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      },
      () => api.publish(f.author, raced.id, { revision: raced.revision }),
    );
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body).toMatchObject({ draftKept: true });
    const orderGiven = ordersOnMain().get(raced.id);

    // The saved change is still a draft; publishing it answers main-changed, and the retry it suggests lands.
    const again = await api.read(f.author, raced.id);
    const refused = await api.publish(f.author, raced.id, { revision: again.body.revision });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("main-changed");
    const retried = await api.publish(f.author, raced.id, { revision: again.body.revision, main: refused.body.main });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(git("show", `refs/heads/main:notes/${raced.id}.md`)).toContain("- race");
    expect(ordersOnMain().get(raced.id)).toBe(orderGiven);
    expectDistinctOrders();
  });

  it("a publish killed between main and the draft's deletion is finished by the next publish, with no second order", async () => {
    const first = await proposed("Landed before the crash");
    const crashed = await proposed("Interrupted publish");
    expect((await api.publish(f.author, first.id, { revision: first.revision })).status).toBe(200);

    const killed = await whenDraftIsDeleted(
      crashed.id,
      async () => {
        throw new Error("killed (-9) after the push to main");
      },
      () => api.publish(f.author, crashed.id, { revision: crashed.revision }),
    );
    expect(killed.status).toBe(500);
    const landedAt = git("rev-parse", "refs/heads/main");
    expect(git("for-each-ref", `refs/heads/drafts/${crashed.id}`)).not.toBe("");

    // The stale draft is exactly what main holds: publishing it again finishes the interrupted publish.
    const again = await api.publish(f.author, crashed.id, { revision: crashed.revision });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ commit: landedAt, draftKept: false, view: { source: "published" } });
    expect(git("rev-parse", "refs/heads/main")).toBe(landedAt);
    expect(git("for-each-ref", `refs/heads/drafts/${crashed.id}`)).toBe("");
    expectDistinctOrders();
  });
});

describe("two publishes of one revision at once", () => {
  it("one lands; the other answers that another publish won (or that it finished it), and neither claims a draft that is gone", async () => {
    const note = await proposed("Published twice at once");
    const answers = await Promise.all([
      api.publish(f.author, note.id, { revision: note.revision }),
      api.publish(f.authorToken, note.id, { revision: note.revision }),
    ]);
    const main = git("rev-parse", "refs/heads/main");
    expect(git("for-each-ref", `refs/heads/drafts/${note.id}`)).toBe("");
    expect(git("log", "--format=%H", `${main}~2..${main}`, "--", `notes/${note.id}.md`)).toBe(main);
    const said = answers.map((a) => JSON.stringify(a.body).slice(0, 300));
    expect(
      answers.filter((a) => a.status === 200),
      said.join("\n"),
    ).not.toHaveLength(0);
    for (const a of answers) {
      // Each says what happened: the commit that holds the note and no draft, or that another publish won.
      if (a.status === 200) expect(a.body, said.join("\n")).toMatchObject({ commit: main, draftKept: false });
      else expect({ status: a.status, code: a.body.error?.code, main: a.body.main }).toEqual({ status: 409, code: "published-meanwhile", main });
    }
    expectDistinctOrders();
  });
});

describe("what a publish names", () => {
  it("a related note that is not in the archive is refused (422 naming related), nothing lands, and main stays served", async () => {
    const created = await api.create(f.author);
    const saved = await api.save(f.author, created.body.id, {
      revision: created.body.revision,
      note: { ...noteFields("Names a note that is not there"), related: ["AFN-998", "AFN-016"] },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const moved = await api.transition(f.author, created.body.id, { to: "hypothesis", revision: saved.body.revision });
    const main = git("rev-parse", "refs/heads/main");
    const refused = await api.publish(f.author, created.body.id, { revision: moved.body.revision });
    expect(refused.status).toBe(422);
    expect(refused.body.error.unmet).toContain("related note AFN-998 does not exist");
    expect(git("rev-parse", "refs/heads/main")).toBe(main);

    // Named as it is, the note publishes, and another author's publish after it is not held back.
    const fixed = await api.save(f.author, created.body.id, {
      revision: moved.body.revision,
      note: { ...noteFields("Names a note that is not there"), related: ["AFN-016"] },
    });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect((await api.publish(f.author, created.body.id, { revision: fixed.body.revision })).status).toBe(200);
    const other = await proposed("Published next");
    expect((await api.publish(f.author, other.id, { revision: other.revision })).status).toBe(200);
  });
});
