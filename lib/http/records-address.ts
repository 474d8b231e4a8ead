import { NextResponse, type NextRequest } from "next/server";
import { canonicalRecordsHref, type RecordParams } from "@/lib/public/record-query";

/**
 * Home's filter form is a plain GET form, so Apply sends its empty choices too
 * (`/?status=&tag=sparse-attention&phase=&sort=order`); such an address is redirected to its one
 * form (`/?tag=sparse-attention`), which the page cache answers. The page made that redirect
 * itself, after a render that nothing kept (a 307 is not a page): every Apply cost a render before
 * the page. Here it costs a parse of the query. The page still redirects whatever reaches it.
 */
export function tidyRecordsAddress(request: NextRequest): NextResponse | null {
  if ((request.method !== "GET" && request.method !== "HEAD") || request.nextUrl.pathname !== "/" || !request.nextUrl.search) return null;
  const params: RecordParams = {};
  for (const key of new Set(request.nextUrl.searchParams.keys())) {
    const all = request.nextUrl.searchParams.getAll(key);
    params[key] = all.length === 1 ? all[0] : all;
  }
  const canonical = canonicalRecordsHref(params);
  // Absolute, as Next wants from a proxy (lib/http/pinned-path.ts redirects the same way).
  return canonical ? NextResponse.redirect(new URL(canonical, request.url), 307) : null;
}
