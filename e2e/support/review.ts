import { expect, request as playwrightRequest, type APIRequestContext } from "@playwright/test";

/**
 * Notes to review, written through the studio's JSON API with an account's token (the same rules as
 * the editor), so the review tests do not depend on the editor's form.
 */

export async function api(token: string): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL: process.env.E2E_BASE_URL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
}

export async function ok<T>(response: Awaited<ReturnType<APIRequestContext["get"]>>): Promise<T> {
  expect(response.ok(), `${response.url()}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

type Fields = { sections: Record<string, string> } & Record<string, unknown>;
export type NoteView = { id: string; revision: string; noteRevision: string; fields: Fields };

/** A new note, saved once and proposed as a hypothesis, by the e2e author; answers its id and revision. */
export async function proposedNote(author: APIRequestContext, title: string): Promise<NoteView> {
  const created = await ok<NoteView>(await author.post("/api/studio/notes", { data: {} }));
  const saved = await author.put(`/api/studio/notes/${created.id}`, {
    data: {
      revision: created.revision,
      note: {
        title,
        summary: `What ${title} decides, in one line.`,
        phase: "6 architecture",
        tags: ["review", "e2e"],
        related: [],
        boundaries: [],
        core: null,
        sections: {
          decision: `Decide ${title}.`,
          invariant: "No masked key is ever loaded.",
          rejectedShortcut: "Masking scores after loading every block.",
          evidence: "- a kernel test that fails when a masked block is loaded",
          claimBoundary: "Says nothing about speed on other backends.",
          notes: "",
        },
      },
    },
  });
  await ok(saved);
  const before = await ok<NoteView>(await author.get(`/api/studio/notes/${created.id}`));
  await ok(await author.post(`/api/studio/notes/${created.id}/transitions`, { data: { to: "hypothesis", revision: before.revision } }));
  return ok<NoteView>(await author.get(`/api/studio/notes/${created.id}`));
}
