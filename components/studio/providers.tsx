"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { z } from "zod";

// Zod probes for eval (`new Function`) to compile fast parsers; under the pages' CSP (no eval) the
// probe fails harmlessly but the browser reports a violation. In the browser, skip the probe.
if (typeof window !== "undefined") z.config({ jitless: true });

/** One query client per browser tab, for the studio's pages only. */
export function StudioProviders({ children }: { children: ReactNode }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 5_000 } } }));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
