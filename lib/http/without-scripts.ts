/**
 * A public page as readers get it: Next's rendered HTML without Next's client runtime, that is
 * without any `<script>` (the bootstrap chunks and the inline React Server Components payload) and
 * without the preloads of script chunks. The public pages are server components with plain links
 * and forms, readable and usable without JavaScript; the runtime only hydrated them, at 138 KB
 * compressed and most of Lighthouse's blocking time on home, for nothing a reader used
 * (docs/decisions/public-pages-without-the-client-runtime.md). The page cache serves pages this
 * way (./page-cache.ts); the static export also drops the nonces (scripts/export-paths.ts).
 *
 * Text inside the page cannot be mistaken for a tag: React escapes `<` in text and attributes, and
 * Next escapes `</script` inside its inline payload.
 */
export function withoutScripts(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "")
    .replace(/<link\b[^>]*\brel="(?:preload|modulepreload)"[^>]*\bas="script"[^>]*\/?>/gi, "")
    .replace(/<link\b[^>]*\bas="script"[^>]*\brel="(?:preload|modulepreload)"[^>]*\/?>/gi, "");
}
