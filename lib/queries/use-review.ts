"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Inbox } from "@/lib/review/inbox";
import type { ReviewView } from "@/lib/review/read-review";
import type { SectionKey } from "@/lib/notes/schema";
import { inboxBody, reviewBody, reviewersBody, reviewWriteBody } from "@/lib/validations/answers";
import { retryTransient, studioFetch } from "./fetch";
import { studioKeys } from "./keys";
import { noteUrl } from "./use-note";

/**
 * A note's review (threads and verdicts) and the review inbox. Keys live under the studio's, so a
 * studio-wide refresh covers them; every review write answers the whole review, which replaces the
 * cache, and refreshes the note (its verdicts decide the status buttons) and the lists.
 */

export const reviewKeys = {
  review: (id: string) => [...studioKeys.all, "review", id] as const,
  inbox: () => [...studioKeys.all, "review-inbox"] as const,
};

const reviewUrl = (id: string) => `${noteUrl(id)}/threads`;

export function useReview(id: string, initial?: ReviewView) {
  return useQuery({
    queryKey: reviewKeys.review(id),
    queryFn: () => studioFetch(reviewUrl(id), reviewBody),
    initialData: initial,
    retry: retryTransient,
  });
}

/** The people an author can ask for a review. */
export function useReviewers(enabled: boolean) {
  return useQuery({
    queryKey: [...studioKeys.all, "reviewers"] as const,
    queryFn: () => studioFetch("/api/studio/reviewers", reviewersBody),
    enabled,
    retry: retryTransient,
    staleTime: 60_000,
  });
}

export function useReviewInbox(initial?: Inbox) {
  return useQuery({
    queryKey: reviewKeys.inbox(),
    queryFn: () => studioFetch("/api/studio/reviews", inboxBody),
    initialData: initial,
    retry: retryTransient,
  });
}

type Write =
  | { action: "start"; section: SectionKey; quote?: string; revision: string; text: string }
  | { action: "reply"; thread: string; text: string }
  | { action: "edit"; thread: string; comment: string; text: string }
  | { action: "resolve" | "reopen"; thread: string }
  | { action: "verdict"; verdict: "approve" | "request-changes"; revision: string; summary?: string }
  | { action: "withdraw"; verdict: string }
  | { action: "ask"; revision: string; reviewers: string[]; text?: string };

function request(id: string, w: Write): { path: string; method: string; body: unknown } {
  const t = "thread" in w ? `${reviewUrl(id)}/${w.thread}` : "";
  switch (w.action) {
    case "start":
      return { path: reviewUrl(id), method: "POST", body: { section: w.section, quote: w.quote, revision: w.revision, text: w.text } };
    case "reply":
      return { path: `${t}/comments`, method: "POST", body: { text: w.text } };
    case "edit":
      return { path: `${t}/comments/${w.comment}`, method: "PATCH", body: { text: w.text } };
    case "resolve":
    case "reopen":
      return { path: `${t}/${w.action}`, method: "POST", body: {} };
    case "verdict":
      return { path: `${noteUrl(id)}/verdicts`, method: "POST", body: { verdict: w.verdict, revision: w.revision, summary: w.summary } };
    case "withdraw":
      return { path: `${noteUrl(id)}/verdicts/${w.verdict}`, method: "DELETE", body: {} };
    case "ask":
      return { path: `${noteUrl(id)}/review-requests`, method: "POST", body: { revision: w.revision, reviewers: w.reviewers, text: w.text } };
  }
}

export function useReviewWrite(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (w: Write) => {
      const r = request(id, w);
      return studioFetch(r.path, reviewWriteBody, { method: r.method, body: r.body });
    },
    onSuccess: (review) => {
      client.setQueryData(reviewKeys.review(id), review);
      void client.invalidateQueries({ queryKey: studioKeys.note(id) });
      void client.invalidateQueries({ queryKey: studioKeys.notes() });
      void client.invalidateQueries({ queryKey: reviewKeys.inbox() });
    },
  });
}
