import type { PersonNotification } from "./notifications";

/**
 * A person's notifications as an Atom feed (their secret address, lib/notifications/settings.ts).
 * Every value goes through `text` or `attr` (the escaping of app/feed.xml/atom.ts): a comment's
 * `<`, `&` or quote is shown as written, never markup. Links are absolute on `origin`.
 */

const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const text = (value: string) => value.replace(NOT_XML, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const attr = (value: string) => text(value).replace(/"/g, "&quot;").replace(/\t/g, "&#9;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;");

export function notificationsFeed(input: { person: string; items: readonly PersonNotification[]; origin: string; self: string }): string {
  const { person, items, origin, self } = input;
  const updated = items[0]?.at ?? new Date(0).toISOString();
  const lines = [
    `<?xml version="1.0" encoding="utf-8"?>`,
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">`,
    `  <id>${text(`${origin}/studio/notifications#${person}`)}</id>`,
    `  <title type="text">${text(`Field Notes notifications for ${person}`)}</title>`,
    `  <updated>${text(new Date(updated).toISOString())}</updated>`,
    `  <generator>Field Notes</generator>`,
    `  <link rel="alternate" type="text/html" href="${attr(`${origin}/studio/notifications`)}"/>`,
    `  <link rel="self" type="application/atom+xml" href="${attr(self)}"/>`,
  ];
  for (const n of items) {
    const url = `${origin}${n.href}`;
    lines.push(
      `  <entry>`,
      `    <id>${text(`${origin}/studio/notifications#${n.kind}-${n.id}`)}</id>`,
      `    <title type="text">${text(n.text)}</title>`,
      `    <link rel="alternate" type="text/html" href="${attr(url)}"/>`,
      `    <updated>${text(new Date(n.at).toISOString())}</updated>`,
      `    <author><name>${text(n.by.name)}</name></author>`,
      `    <category term="${attr(n.kind)}"/>`,
      ...(n.excerpt ? [`    <summary type="text">${text(n.excerpt)}</summary>`] : []),
      `  </entry>`,
    );
  }
  lines.push(`</feed>`, "");
  return lines.join("\n");
}
