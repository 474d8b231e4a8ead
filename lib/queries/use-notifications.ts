"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { feedAddressBody, notificationListBody, notificationSettingsBody, peopleBody, type NotificationSettings } from "@/lib/validations/notification-answers";
import type { NotificationList } from "@/lib/notifications/notifications";
import type { MailSettingsRequest, MarkReadRequest } from "@/lib/validations/notifications";
import { retryTransient, studioFetch } from "./fetch";
import { studioKeys } from "./keys";

/**
 * The signed-in person's notifications: the list (and its unread count, which the header shows),
 * asked again every half minute and when the window regains focus, so a request or a mention
 * reaches a reviewer without a reload. Every mark answers the list after, which replaces the cache.
 */

export const notificationKeys = {
  list: () => [...studioKeys.all, "notifications"] as const,
  settings: () => [...studioKeys.all, "notification-settings"] as const,
  people: () => [...studioKeys.all, "people"] as const,
};

const POLL_MS = 30_000;

export function useNotifications(initial?: NotificationList) {
  return useQuery({
    queryKey: notificationKeys.list(),
    queryFn: () => studioFetch("/api/studio/notifications", notificationListBody),
    initialData: initial,
    refetchInterval: POLL_MS,
    refetchOnWindowFocus: true,
    retry: retryTransient,
  });
}

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: MarkReadRequest) => studioFetch("/api/studio/notifications/read", notificationListBody, { method: "POST", body }),
    onSuccess: (list) => client.setQueryData(notificationKeys.list(), list),
  });
}

export function useMarkUnread() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => studioFetch("/api/studio/notifications/unread", notificationListBody, { method: "POST", body: { id } }),
    onSuccess: (list) => client.setQueryData(notificationKeys.list(), list),
  });
}

export function useNotificationSettings(initial?: NotificationSettings) {
  return useQuery({
    queryKey: notificationKeys.settings(),
    queryFn: () => studioFetch("/api/studio/notifications/settings", notificationSettingsBody),
    initialData: initial,
    retry: retryTransient,
  });
}

export function useSaveMailSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: MailSettingsRequest) => studioFetch("/api/studio/notifications/settings", notificationSettingsBody, { method: "PUT", body }),
    onSuccess: (settings) => client.setQueryData(notificationKeys.settings(), settings),
  });
}

/** A new feed address (shown once by the caller), or its revocation. */
export function useFeedAddress() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: notificationKeys.settings() });
  const create = useMutation({
    mutationFn: () => studioFetch("/api/studio/notifications/feed", feedAddressBody, { method: "POST", body: {} }),
    onSuccess: refresh,
  });
  const revoke = useMutation({
    mutationFn: () => studioFetch("/api/studio/notifications/feed", notificationSettingsBody, { method: "DELETE", body: {} }),
    onSuccess: (settings) => client.setQueryData(notificationKeys.settings(), settings),
  });
  return { create, revoke };
}

/** Everyone a comment can mention, for the comment box's completion (asked once it is needed). */
export function usePeople(enabled: boolean) {
  return useQuery({
    queryKey: notificationKeys.people(),
    queryFn: () => studioFetch("/api/studio/people", peopleBody),
    enabled,
    staleTime: 5 * 60_000,
    retry: retryTransient,
  });
}
