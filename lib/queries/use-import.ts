"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { readErrorBody } from "@/lib/validations/answers";
import { importJobBody, importPlanBody, uploadBody } from "@/lib/validations/import-answers";
import type { ImportRequest } from "@/lib/validations/import";
import { retryTransient, studioFetch, StudioApiError } from "./fetch";
import { studioKeys } from "./keys";

/**
 * The Import page's calls: a zip uploaded (multipart), the plan, the run started as a job, and the
 * job polled every half second while it runs (its progress bar), then no more.
 */

export const importKeys = {
  job: (id: string) => [...studioKeys.all, "import-job", id] as const,
};

const POLL_MS = 500;

export function useUploadZip() {
  return useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append("file", file, file.name);
      let response: Response;
      try {
        response = await fetch("/api/studio/import/uploads", { method: "POST", body: form, credentials: "same-origin" });
      } catch {
        throw new StudioApiError(0, { error: { status: 503, code: "offline", message: "the server could not be reached" } });
      }
      const body = (await response.json().catch(() => undefined)) as unknown;
      if (!response.ok) throw new StudioApiError(response.status, readErrorBody(body ?? null));
      const parsed = uploadBody.safeParse(body);
      if (!parsed.success)
        throw new StudioApiError(response.status, {
          error: { status: 502, code: "unreadable-answer", message: "The server's answer could not be read; reload the page." },
        });
      return parsed.data;
    },
  });
}

export function usePlanImport() {
  return useMutation({ mutationFn: (body: ImportRequest) => studioFetch("/api/studio/import/plan", importPlanBody, { method: "POST", body }) });
}

export function useStartImport() {
  return useMutation({ mutationFn: (body: ImportRequest) => studioFetch("/api/studio/import/jobs", importJobBody, { method: "POST", body }) });
}

export function useImportJob(id: string | null) {
  return useQuery({
    queryKey: importKeys.job(id ?? ""),
    queryFn: () => studioFetch(`/api/studio/import/jobs/${encodeURIComponent(id ?? "")}`, importJobBody),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data?.state === "running" || !query.state.data ? POLL_MS : false),
    retry: retryTransient,
  });
}
