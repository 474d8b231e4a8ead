/**
 * A request body's bytes, or null as soon as they pass `cap`: a body without Content-Length (or
 * one that lies about it) is counted as it arrives, so nobody can make the server hold more than
 * `cap` bytes of it. Shared by every route that reads a raw body (uploads, zips, diffs).
 */
export async function readCapped(request: Request, cap: number): Promise<Buffer | null> {
  if (Number(request.headers.get("content-length") ?? 0) > cap) return null;
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > cap) {
      await reader.cancel();
      return null;
    }
    parts.push(value);
  }
  return Buffer.concat(parts);
}
