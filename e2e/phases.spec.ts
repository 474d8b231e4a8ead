import { expect, test, type APIRequestContext } from "@playwright/test";
import { AUTHOR, ensureAccounts, newToken, REVIEWER, signIn } from "./support/studio";

/**
 * The closeout contract end to end: a phase closes in the studio only with its decision delta — a
 * note of the phase that became verified while it was open — or with a worded no-delta record, and
 * the record is on the public phase page and in the agents' phase list.
 */

test.beforeAll(() => ensureAccounts());

async function api(request: APIRequestContext, token: string, method: "GET" | "POST" | "PUT", path: string, data?: unknown) {
  const response = await request.fetch(path, { method, data, headers: { authorization: `Bearer ${token}` } });
  const body = await response.json();
  expect(response.ok(), `${method} ${path}: ${JSON.stringify(body)}`).toBe(true);
  return body;
}

test("a phase closes with a new verified note as its delta, and the record is public", async ({ page, request }) => {
  test.setTimeout(180_000);
  const slug = "qwen4exp-predictive-i-o-training";
  const author = newToken(AUTHOR.name);
  const reviewer = newToken(REVIEWER.name);

  // Nothing of this phase is verified yet: the studio refuses to close it and says why.
  await signIn(page, AUTHOR, "/studio/phases");
  const phase = page.locator(`section[data-phase="${slug}"]`);
  // One action per phase: Close… opens the closing form under it.
  await phase.getByRole("button", { name: /^Close…/ }).click();
  await expect(phase.getByRole("button", { name: "Close phase with its delta" })).toBeDisabled();
  await expect(phase.getByRole("list", { name: /cannot close with a delta/ })).toContainText("no decision delta");

  // An author writes a note of this phase; a reviewer approves the exact revision; it is verified and published.
  const created = await api(request, author, "POST", "/api/studio/notes", {});
  const id: string = created.id;
  const saved = await api(request, author, "PUT", `/api/studio/notes/${id}`, {
    revision: created.revision,
    note: {
      title: `Replay traces are deterministic per seed (${id})`,
      summary: "A replayed decode trace yields the same expert routes for the same seed.",
      phase: "Qwen4Exp predictive I/O training",
      tags: ["prefill replay"],
      related: ["AFN-021"],
      boundaries: [],
      core: null,
      sections: {
        decision: "Key every trace by its seed.",
        invariant: "Same seed, same routes.",
        rejectedShortcut: "Sampling traces without recording the seed.",
        evidence: "- the replay test that compares two runs of one seed",
        claimBoundary: "Says nothing about predictor accuracy.",
        notes: "",
      },
    },
  });
  const proposed = await api(request, author, "POST", `/api/studio/notes/${id}/transitions`, { to: "hypothesis", revision: saved.revision });
  await api(request, reviewer, "POST", `/api/studio/notes/${id}/verdicts`, { verdict: "approve", revision: proposed.revision });
  const verified = await api(request, author, "POST", `/api/studio/notes/${id}/transitions`, { to: "verified-checkpoint", revision: proposed.revision });
  await api(request, author, "POST", `/api/studio/notes/${id}/publish`, { revision: verified.revision });

  // Now the note is the phase's delta and the phase closes with it.
  await page.reload();
  await expect(phase).toContainText(`Decision delta: ${id}`);
  await phase.getByRole("button", { name: /^Close…/ }).click();
  await phase.getByRole("button", { name: "Close phase with its delta" }).click();
  await expect(phase.getByTestId("studio-closeout")).toContainText(`with decision delta ${id}`);

  await page.goto(`/phases/${slug}`);
  await expect(page.getByTestId("closeout-record")).toContainText(`Closed by ${AUTHOR.name}`);
  await expect(page.getByTestId("closeout-record").getByRole("link", { name: id })).toHaveAttribute("href", `/notes/${id}`);
  await expect(page.locator(".phase-record")).toContainText("closed");

  const phases = await (await request.get("/agents/phases.json")).json();
  const listed = phases.phases.find((p: { slug: string }) => p.slug === slug);
  expect(listed).toMatchObject({ status: "closed", closeout: { kind: "delta", notes: [id] } });
});

test("a phase closes with a worded no-delta record, which the public page shows", async ({ page }) => {
  const slug = "8-11-performance-architecture";
  const why = "The phase measured SSD miss latency only; AFN-019 stays an untested hypothesis, so no decision changed.";
  await signIn(page, AUTHOR, "/studio/phases");
  const phase = page.locator(`section[data-phase="${slug}"]`);
  await phase.getByRole("button", { name: /^Close…/ }).click();
  await phase.getByLabel(/No new decision delta/).fill("too short");
  await phase.getByRole("button", { name: "Close phase with a no-delta record" }).click();
  await expect(phase.getByRole("alert")).toContainText("at least 20 characters");
  await phase.getByLabel(/No new decision delta/).fill(why);
  await phase.getByRole("button", { name: "Close phase with a no-delta record" }).click();
  await expect(phase.getByTestId("studio-closeout")).toContainText("no new decision delta");

  await page.goto(`/phases/${slug}`);
  const record = page.getByTestId("closeout-record");
  await expect(record).toContainText("no new decision delta");
  await expect(record).toContainText(why.slice(0, 40));
  await expect(record.getByRole("link", { name: "AFN-019" })).toBeVisible();
});

test("a reviewer sees the phases but cannot close one", async ({ page, request }) => {
  await signIn(page, REVIEWER, "/studio/phases");
  await expect(page.getByRole("heading", { level: 1, name: "Phases" })).toBeVisible();
  await expect(page.getByRole("button", { name: /Close phase|Close…|Rename…/ })).toHaveCount(0);
  const token = newToken(REVIEWER.name);
  const refused = await request.post("/api/studio/phases/5/close", { data: {}, headers: { authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(403);
});

test("a phase created and renamed in the studio by keyboard keeps its address, and the new name is public", async ({ page, request }) => {
  await signIn(page, AUTHOR, "/studio/phases");
  // The list is in a reader's order, each phase by its name, with its state.
  const items = page.getByRole("list", { name: "Phases in their order" }).getByRole("heading", { level: 2 });
  await expect(items.first()).toHaveText("Phase 0–3");
  await expect(page.locator('section[data-phase="5"]')).toContainText("open");

  await page.getByLabel("Name", { exact: true }).focus();
  await page.keyboard.type("13 Keyboard phase");
  await page.keyboard.press("Enter");
  const phase = page.locator('section[data-phase="13-keyboard-phase"]');
  await expect(phase.getByRole("heading", { level: 2 })).toHaveText("Phase 13 Keyboard phase");

  // Rename…: focus moves into the form, which holds the current name; Enter renames; focus returns to the button.
  await phase.getByRole("button", { name: /^Rename…/ }).focus();
  await page.keyboard.press("Enter");
  const field = phase.getByLabel("New name");
  await expect(field).toBeFocused();
  await expect(field).toHaveValue("13 Keyboard phase");
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("13 Renamed by keyboard");
  await page.keyboard.press("Enter");
  await expect(phase.getByRole("heading", { level: 2 })).toHaveText("Phase 13 Renamed by keyboard");
  await expect(phase).toContainText("Notes name it “13 Keyboard phase”");
  await expect(phase.getByRole("button", { name: /^Rename…/ })).toBeFocused();

  // Escape closes an action's form without writing.
  await page.keyboard.press("Enter");
  await expect(phase.getByLabel("New name")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(phase.getByLabel("New name")).toHaveCount(0);

  await page.goto("/phases/13-keyboard-phase");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Phase 13 Renamed by keyboard");
  const listed = (await (await request.get("/agents/phases.json")).json()).phases.find((p: { slug: string }) => p.slug === "13-keyboard-phase");
  expect(listed).toMatchObject({ name: "13 Keyboard phase", title: "13 Renamed by keyboard", status: "open" });

  // The editor's phase picker offers it by its new name and sends the name notes carry.
  await page.goto("/studio/notes/new");
  const picker = page.getByLabel("Phase", { exact: true });
  await expect(picker.locator('option[value="13 Keyboard phase"]')).toHaveText("Phase 13 Renamed by keyboard");
  await picker.selectOption({ label: "Phase 13 Renamed by keyboard" });
  await expect(picker).toHaveValue("13 Keyboard phase");
});
