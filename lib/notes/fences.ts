/**
 * Code fences hide headings. `fenceStep` is the one place that tracks them, so the schema, the
 * file parser and the section-shape check agree on where a fence opens and closes. A module of its
 * own: the schema and ./section-shape.ts both need it, and the schema reaches section-shape through
 * ./section-headings.ts.
 */
export function fenceStep(fence: string | null, line: string): { fence: string | null; isFence: boolean } {
  const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
  if (!f) return { fence, isFence: false };
  const marker = f[1] ?? "";
  if (fence === null) return { fence: marker, isFence: true };
  const closes = marker[0] === fence[0] && marker.length >= fence.length && /^ {0,3}[`~]+[ \t]*$/.test(line);
  return { fence: closes ? null : fence, isFence: true };
}
