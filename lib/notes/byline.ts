import type { Person } from "@/lib/store/types";

/**
 * Who a reader is told made a change. A commit written by a person (a studio save or publish, a
 * plain-git commit) names that person. A commit the app wrote on its own (the seed of the content
 * repository, whose author is the app's identity "Field Notes") carries the archive's own byline
 * from the site file instead, since the seed is that author's work.
 */
export function changedBy(author: Person, app: Person, siteAuthor: string): string {
  const isApp = author.email.toLowerCase() === app.email.toLowerCase() && author.name === app.name;
  return isApp ? siteAuthor : author.name;
}
