/** "2026-12-02 14:48" from an ISO date, the same on the server and in the browser (no locale, no hydration mismatch). */
export const shortDate = (iso: string) => iso.slice(0, 16).replace("T", " ");
