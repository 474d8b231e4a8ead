import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDisplayName } from "@/lib/auth/accounts";
import { answer, noteFields, params, request, studioFixture, type Json } from "@/lib/testing/studio";
import * as list from "./notes/route";
import * as transitions from "./notes/[id]/transitions/route";
import * as threads from "./notes/[id]/threads/route";
import * as comments from "./notes/[id]/threads/[thread]/comments/route";
import * as requests from "./notes/[id]/review-requests/route";
import * as notifications from "./notifications/route";
import * as people from "./people/route";
import * as reviewers from "./reviewers/route";

/**
 * A display name (`npm run user -- name ada "Ada Lovelace"`) is who people see: the author name of
 * the commits an account makes and the byline of its words in a review thread. The e-mail stays
 * the account's stable id, and an account without a display name is shown by its login.
 */

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
  await setDisplayName("ada", "Ada Lovelace");
  await setDisplayName("rita", "Rita Levi-Montalcini");
});
afterAll(() => f.cleanup());

const git = (...args: string[]) => execFileSync("git", ["--git-dir", f.gitdir, ...args], { encoding: "utf8" }).trim();

describe("display names", () => {
  it("reach a commit's author name (e-mail unchanged) and a thread's byline, for a session and a token alike", async () => {
    const created = await list.POST(request(f.author, "POST", "/api/studio/notes", { note: noteFields("Named people") }), params({})).then(answer);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const moved = await transitions
      .POST(request(f.authorToken, "POST", `/api/studio/notes/${id}/transitions`, { to: "hypothesis", revision: created.body.revision }), params({ id }))
      .then(answer);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(git("log", "--format=%an <%ae>", `refs/heads/main..refs/heads/drafts/${id}`).split("\n")).toEqual([
      "Ada Lovelace <ada@users.field-notes.invalid>",
      "Ada Lovelace <ada@users.field-notes.invalid>",
    ]);

    const revision = moved.body.noteRevision as string;
    const base = `/api/studio/notes/${id}/threads`;
    const started = await threads
      .POST(request(f.reviewer, "POST", base, { section: "decision", revision, text: "Which kernel?" }), params({ id }))
      .then(answer);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const thread = started.body.thread as string;
    const replied = await comments
      .POST(request(f.authorToken, "POST", `${base}/${thread}/comments`, { text: "The fused one." }), params({ id, thread }))
      .then(answer);
    expect(replied.status, JSON.stringify(replied.body)).toBe(201);
    // grace has no display name: she is shown by her login.
    const graced = await comments.POST(request(f.secondAuthor, "POST", `${base}/${thread}/comments`, { text: "Agreed." }), params({ id, thread })).then(answer);
    expect(graced.status, JSON.stringify(graced.body)).toBe(201);

    const review = await threads.GET(request(f.reviewer, "GET", base), params({ id })).then(answer);
    const shown = review.body.threads.find((t: Json) => t.id === thread).comments.map((c: Json) => `${c.by.id} as ${c.by.name}: ${c.text}`);
    expect(shown).toEqual(["rita as Rita Levi-Montalcini: Which kernel?", "ada as Ada Lovelace: The fused one.", "grace as grace: Agreed."]);
    expect(git("log", "--format=%an <%ae>", `refs/reviews/${id}`).split("\n")).toEqual([
      "grace <grace@users.field-notes.invalid>",
      "Ada Lovelace <ada@users.field-notes.invalid>",
      "Rita Levi-Montalcini <rita@users.field-notes.invalid>",
    ]);
  });

  it("name people in the studio's lists and notifications: the reviewer picker, the mention list (with the login a mention uses), a request, a notification's text", async () => {
    const picker = await reviewers.GET(request(f.author, "GET", "/api/studio/reviewers"), params({})).then(answer);
    expect(picker.status).toBe(200);
    expect(picker.body.reviewers).toContainEqual({ id: "rita", name: "rita", displayName: "Rita Levi-Montalcini" });
    const mentionable = await people.GET(request(f.reviewer, "GET", "/api/studio/people"), params({})).then(answer);
    expect(mentionable.body.people).toContainEqual({ id: "ada", name: "ada", displayName: "Ada Lovelace" });
    // No display name: the login, twice.
    expect(mentionable.body.people).toContainEqual({ id: "grace", name: "grace", displayName: "grace" });

    const created = await list.POST(request(f.author, "POST", "/api/studio/notes", { note: noteFields("People by name") }), params({})).then(answer);
    const id = created.body.id as string;
    const moved = await transitions
      .POST(request(f.author, "POST", `/api/studio/notes/${id}/transitions`, { to: "hypothesis", revision: created.body.revision }), params({ id }))
      .then(answer);
    const asked = await requests
      .POST(request(f.author, "POST", `/api/studio/notes/${id}/review-requests`, { revision: moved.body.noteRevision, reviewers: ["rita"] }), params({ id }))
      .then(answer);
    expect(asked.status, JSON.stringify(asked.body)).toBe(201);
    const listed = await requests.GET(request(f.author, "GET", `/api/studio/notes/${id}/review-requests`), params({ id })).then(answer);
    expect(JSON.stringify(listed.body)).toContain('{"id":"rita","name":"Rita Levi-Montalcini"}');
    expect(git("log", "-1", "--format=%s", `refs/reviews/${id}`)).toContain("ask Rita Levi-Montalcini to review");

    // A mention by login (as the completion inserts it) reaches grace; the text names who by display name.
    const started = await threads
      .POST(
        request(f.reviewer, "POST", `/api/studio/notes/${id}/threads`, {
          section: "decision",
          revision: moved.body.noteRevision,
          text: "@grace can you check?",
        }),
        params({ id }),
      )
      .then(answer);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const told = await notifications.GET(request(f.secondAuthor, "GET", "/api/studio/notifications"), params({})).then(answer);
    expect(told.body.items.find((n: Json) => n.note === id)).toMatchObject({
      kind: "mention",
      by: { id: "rita", name: "Rita Levi-Montalcini" },
      text: expect.stringMatching(/^Rita Levi-Montalcini mentioned you/),
    });

    // A new display name shows in notifications from then on, for records written under the old one too.
    await setDisplayName("ada", "Augusta Ada King");
    const asReviewer = await notifications.GET(request(f.reviewer, "GET", "/api/studio/notifications"), params({})).then(answer);
    expect(asReviewer.body.items.find((n: Json) => n.note === id && n.kind === "review-request")).toMatchObject({
      by: { id: "ada", name: "Augusta Ada King" },
      text: expect.stringMatching(/^Augusta Ada King asks you to review/),
    });
  });
});
