"use client";

import { QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { z } from "zod";
import styles from "./studio.module.css";

// Zod probes for eval (`new Function`) to compile fast parsers; under the pages' CSP (no eval) the
// probe fails harmlessly but the browser reports a violation. In the browser, skip the probe.
if (typeof window !== "undefined") z.config({ jitless: true });

/**
 * One query client per browser tab, for the studio's pages only. A read that fails (the server out
 * of reach, an answer lib/queries could not read) leaves the page on what it last read, so the
 * page says so here, in the failure's own words, until the same read succeeds again.
 */
export function StudioProviders({ children }: { children: ReactNode }) {
  const [failed, setFailed] = useState<Record<string, string>>({});
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { staleTime: 5_000 } },
        queryCache: new QueryCache({
          onError: (error, query) => setFailed((f) => ({ ...f, [query.queryHash]: error.message })),
          onSuccess: (_data, query) =>
            setFailed((f) => (query.queryHash in f ? Object.fromEntries(Object.entries(f).filter(([k]) => k !== query.queryHash)) : f)),
        }),
      }),
  );
  const messages = [...new Set(Object.values(failed))];
  return (
    <QueryClientProvider client={client}>
      {messages.length ? (
        <div role="alert" className={styles.error} data-studio-read-error>
          {messages.map((m) => (
            <p key={m}>{m}</p>
          ))}
        </div>
      ) : null}
      {children}
    </QueryClientProvider>
  );
}
