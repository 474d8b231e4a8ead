import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request, studioFixture, type Caller } from "@/lib/testing/studio";
import { PAGE_RULES, studioPageFiles } from "@/lib/testing/studio-page-rules";

/**
 * Who may call what, generated from the route files themselves. Every `app/api/**\/route.ts` and
 * every studio page must have a rule below; a new route file, or a new method in one, without a
 * rule fails the first test, so nobody adds an endpoint without saying who may use it. Each API
 * method is then called for real (route handler, real accounts, tokens and content repository) by
 * every kind of caller, and must refuse exactly the callers its rule refuses.
 *
 * A permitted write is sent a malformed JSON body, so it stops at the body (400) after the role
 * check and the matrix writes nothing.
 */

const APP = path.resolve(__dirname);
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
type Method = (typeof METHODS)[number];

/**
 * anonymous: what a caller with no session and no token gets (404 where a draft's address must not
 * admit it exists). author/reviewer: whether the role may call it at all (the handler may still
 * answer 404 or 422 on the merits). A revoked token is always 401.
 */
type Rule = { anonymous: 401 | 404; author: boolean; reviewer: boolean };
const anyone = (anonymous: 401 | 404 = 401): Rule => ({ anonymous, author: true, reviewer: true });
const authorOnly: Rule = { anonymous: 401, author: true, reviewer: false };
const reviewerOnly: Rule = { anonymous: 401, author: false, reviewer: true };

/** Routes that are public on purpose, with the reason; they are not called here. */
const PUBLIC = "public";

const API_RULES: Record<string, Partial<Record<Method, Rule | typeof PUBLIC>>> = {
  // next-auth's own sign-in, callback and session endpoints: they are how a person becomes a caller.
  "api/auth/[...nextauth]/route.ts": { GET: PUBLIC, POST: PUBLIC },
  // The git host's webhook: authenticated by its HMAC signature, not a session (lib/web/webhook-signature.test.ts, e2e/remote.spec.ts).
  "api/hooks/git/route.ts": { POST: PUBLIC },
  "api/studio/notes/route.ts": { GET: anyone(), POST: authorOnly },
  "api/studio/notes/[id]/assets/route.ts": { POST: authorOnly },
  "api/studio/notes/[id]/route.ts": { GET: anyone(404), PUT: authorOnly, DELETE: authorOnly },
  "api/studio/notes/[id]/review-requests/route.ts": { GET: anyone(404), POST: authorOnly },
  "api/studio/notes/[id]/transitions/route.ts": { POST: authorOnly },
  "api/studio/notes/[id]/publish/route.ts": { POST: authorOnly },
  "api/studio/notes/[id]/threads/route.ts": { GET: anyone(404), POST: anyone() },
  "api/studio/notes/[id]/threads/[thread]/comments/route.ts": { POST: anyone() },
  "api/studio/notes/[id]/threads/[thread]/comments/[comment]/route.ts": { PATCH: anyone() },
  "api/studio/notes/[id]/threads/[thread]/resolve/route.ts": { POST: anyone() },
  "api/studio/notes/[id]/threads/[thread]/reopen/route.ts": { POST: anyone() },
  "api/studio/notes/[id]/verdicts/route.ts": { GET: anyone(404), POST: reviewerOnly },
  "api/studio/notes/[id]/verdicts/[verdict]/route.ts": { DELETE: reviewerOnly },
  "api/studio/account/route.ts": { GET: anyone(), PUT: anyone() },
  "api/studio/phases/route.ts": { GET: anyone(), POST: authorOnly },
  "api/studio/webhooks/route.ts": { GET: authorOnly, POST: authorOnly },
  "api/studio/webhooks/[id]/route.ts": { DELETE: authorOnly },
  "api/studio/phases/[slug]/close/route.ts": { POST: authorOnly },
  "api/studio/import/uploads/route.ts": { POST: authorOnly },
  "api/studio/import/plan/route.ts": { POST: authorOnly },
  "api/studio/import/jobs/route.ts": { POST: authorOnly },
  "api/studio/import/jobs/[id]/route.ts": { GET: authorOnly },
  "api/studio/phases/[slug]/reopen/route.ts": { POST: authorOnly },
  "api/studio/phases/[slug]/rename/route.ts": { POST: authorOnly },
  "api/studio/reviews/route.ts": { GET: anyone() },
  "api/studio/reviewers/route.ts": { GET: anyone() },
  "api/studio/people/route.ts": { GET: anyone() },
  "api/studio/notifications/route.ts": { GET: anyone() },
  "api/studio/notifications/read/route.ts": { POST: anyone() },
  "api/studio/notifications/unread/route.ts": { POST: anyone() },
  "api/studio/notifications/settings/route.ts": { GET: anyone(), PUT: anyone() },
  "api/studio/notifications/feed/route.ts": { POST: anyone(), DELETE: anyone() },
  // A person's notification feed: its secret address is the credential, for feed readers (app/api/studio/notifications.test.ts).
  "api/studio/notifications/feed/[token]/route.ts": { GET: PUBLIC },
};

function filesUnder(dir: string, name: string): string[] {
  return (fs.readdirSync(path.join(APP, dir), { recursive: true }) as string[])
    .filter((f) => path.basename(f) === name)
    .map((f) => path.join(dir, f).split(path.sep).join("/"))
    .sort();
}

// A real id and thread where the route needs one: the seed's AFN-016, a thread that is not there.
const PARAM_VALUES: Record<string, string> = {
  id: "AFN-016",
  thread: "0123456789ab",
  comment: "0123456789ab",
  verdict: "0123456789ab",
  slug: "6-architecture",
};

function urlAndParams(file: string): { pathname: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const segments = file
    .replace(/\/route\.ts$/, "")
    .split("/")
    .map((s) => {
      const name = /^\[(\w+)\]$/.exec(s)?.[1];
      if (!name) return s;
      const value = PARAM_VALUES[name];
      if (!value) throw new Error(`${file}: no test value for the parameter [${name}]; add one to PARAM_VALUES`);
      params[name] = value;
      return value;
    });
  return { pathname: `/${segments.join("/")}`, params };
}

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
}, 60_000);
afterAll(() => f.cleanup());

describe("the authorization matrix covers every route", () => {
  it("has a rule for every API route file and every method it exports, and no rule for a route that is gone", async () => {
    const files = filesUnder("api", "route.ts");
    expect(files, "a route file without a rule (add it to API_RULES), or a rule for a file that is gone").toEqual(Object.keys(API_RULES).sort());
    for (const file of files) {
      const mod = (await import(/* @vite-ignore */ path.join(APP, file))) as Record<string, unknown>;
      const exported = METHODS.filter((m) => typeof mod[m] === "function");
      expect(exported, `${file}: the methods it exports`).toEqual(METHODS.filter((m) => m in (API_RULES[file] ?? {})));
    }
  });

  // Pages render only inside Next's request scope, so here their rule is checked in their source;
  // e2e/studio-pages-matrix.spec.ts opens each one in the browser as each kind of visitor.
  it("has a rule for every studio page, and each page refuses an anonymous visitor as its rule says", () => {
    const pages = studioPageFiles(APP);
    expect(pages, "a studio page without a rule (add it to PAGE_RULES)").toEqual(Object.keys(PAGE_RULES).sort());
    for (const page of pages) {
      const rule = PAGE_RULES[page];
      if (rule === "public") continue;
      const source = fs.readFileSync(path.join(APP, page), "utf8");
      expect(source, `${page} reads the signed-in actor`).toMatch(/const actor = await currentActor\(\);/);
      const toSignIn = rule === "sign-in" || rule === "author";
      const refusal = toSignIn ? /if \(!actor\) redirect\("\/sign-in\?callbackUrl=/ : /if \(!actor\) notFound\(\);/;
      expect(source, `${page} must ${toSignIn ? "send an anonymous visitor to sign in" : "answer 404 to an anonymous visitor"}`).toMatch(refusal);
      if (rule === "author") expect(source, `${page} must answer 404 to a reviewer`).toMatch(/if \(actor\.role !== "author"\) notFound\(\);/);
    }
  });
});

describe("each API method refuses the callers its rule refuses", () => {
  const cases = Object.entries(API_RULES).flatMap(([file, methods]) =>
    Object.entries(methods).flatMap(([method, rule]) => (rule === PUBLIC ? [] : [{ file, method: method as Method, rule }])),
  );

  for (const { file, method, rule } of cases) {
    it(`${method} ${file}`, async () => {
      const mod = (await import(/* @vite-ignore */ path.join(APP, file))) as Record<string, (r: Request, c: unknown) => Promise<Response>>;
      const { pathname, params } = urlAndParams(file);
      const call = async (caller: Caller) => {
        const headers: Record<string, string> = { ...caller.headers, host: "studio.test" };
        let body: string | undefined;
        if (method !== "GET" && method !== "HEAD") {
          headers["content-type"] = "application/json";
          body = "{ not json"; // stops a permitted write at the body
        }
        const req = body === undefined ? request(caller, method, pathname) : new Request(`http://studio.test${pathname}`, { method, headers, body });
        const res = await mod[method]!(req, { params: Promise.resolve(params) });
        const json = (await res.json().catch(() => ({}))) as { error?: { code?: string } };
        return { status: res.status, code: json.error?.code ?? "" };
      };

      const anonymous = await call(f.anonymous);
      expect(anonymous.status, "anonymous").toBe(rule.anonymous);
      expect((await call(f.revokedToken)).status, "revoked token").toBe(401);
      for (const [role, callers] of [
        ["author", [f.author, f.authorToken]],
        ["reviewer", [f.reviewer, f.reviewerToken]],
      ] as const) {
        for (const caller of callers) {
          const got = await call(caller);
          if (rule[role]) {
            expect([401, 403], `${caller.label} may call it, got ${got.status} ${got.code}`).not.toContain(got.status);
            // An import job's address names a job in memory: none is running here, so it answers on the merits, 404.
            if (method === "GET") expect(got.status, `${caller.label} reads it`).toBe(file === "api/studio/import/jobs/[id]/route.ts" ? 404 : 200);
            // 400: the JSON routes refuse "{ not json"; 415: the upload route refuses any body but multipart. Either way the body was reached.
            // A DELETE whose only input is its address (a webhook receiver's id) reads no body: it answers on the merits, 404 for no such receiver.
            else if (file === "api/studio/webhooks/[id]/route.ts") expect(got, caller.label).toMatchObject({ status: 404, code: "not-found" });
            else expect([400, 415], `${caller.label} gets as far as the body, got ${got.status} ${got.code}`).toContain(got.status);
          } else {
            expect(got, `${caller.label} must be refused`).toMatchObject({ status: 403, code: "forbidden" });
          }
        }
      }
    });
  }
});
