import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Another site's page for cross-origin tests: a tiny HTTP server on another port of 127.0.0.1, the
 * same host as the app, so it is the same *site* (cookies and SameSite=Lax do not tell them apart)
 * but another *origin*. It serves one HTML page and closes when the test is done.
 */
export async function foreignSite(html: string): Promise<{ url: string; origin: string; close(): Promise<void> }> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/`,
    origin,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
