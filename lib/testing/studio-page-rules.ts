import fs from "node:fs";
import path from "node:path";

/**
 * Who may open each studio page, as a table the authorization tests share: the route-file test
 * (app/authorization-matrix.test.ts, which fails on a page with no rule) and the browser test
 * (e2e/studio-pages-matrix.spec.ts, which opens each page as each kind of visitor). An anonymous
 * visitor is sent to sign in, or, at a draft's address, gets a plain 404 that admits nothing.
 * Both roles may open every studio page but an "author" one (a reviewer gets a 404 there, as its
 * API refuses a reviewer); what a role may change is the API's rule.
 */
export type PageRule = "sign-in" | "404" | "public" | "author";

export const PAGE_RULES: Record<string, PageRule> = {
  "(studio)/sign-in/page.tsx": "public",
  "(studio)/studio/page.tsx": "sign-in",
  "(studio)/studio/account/page.tsx": "sign-in",
  "(studio)/studio/phases/page.tsx": "sign-in",
  "(studio)/studio/reviews/page.tsx": "sign-in",
  "(studio)/studio/notifications/page.tsx": "sign-in",
  "(studio)/studio/notifications/settings/page.tsx": "sign-in",
  // Receivers and their secrets: authors only, as GET /api/studio/webhooks.
  "(studio)/studio/webhooks/page.tsx": "author",
  // Writes branches and drafts from another repository: authors only, as /api/studio/import/….
  "(studio)/studio/import/page.tsx": "author",
  "(studio)/studio/notes/[id]/page.tsx": "404",
  "(studio)/studio/notes/new/page.tsx": "sign-in",
  "(studio)/studio/notes/[id]/review/page.tsx": "404",
};

/** Every page file under app/(studio), as "(studio)/…/page.tsx", sorted. */
export function studioPageFiles(appDir = path.resolve("app")): string[] {
  return (fs.readdirSync(path.join(appDir, "(studio)"), { recursive: true }) as string[])
    .filter((f) => path.basename(f) === "page.tsx")
    .map((f) => ["(studio)", ...f.split(path.sep)].join("/"))
    .sort();
}

/** The URL of a page file, with its [params] filled from `values`. */
export function pageUrl(file: string, values: Record<string, string>): string {
  const segments = file
    .replace(/\/page\.tsx$/, "")
    .split("/")
    .filter((s) => !/^\(.*\)$/.test(s))
    .map((s) => {
      const name = /^\[(\w+)\]$/.exec(s)?.[1];
      if (!name) return s;
      const value = values[name];
      if (value === undefined) throw new Error(`${file}: no value for the parameter [${name}]`);
      return value;
    });
  return `/${segments.join("/")}`;
}
