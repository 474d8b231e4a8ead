"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { ChangeTime } from "@/components/studio/change-time";
import styles from "@/components/studio/studio.module.css";
import { exactTime } from "@/lib/hooks/change-time";
import { studioFetch, StudioApiError } from "@/lib/queries/fetch";
import { EVENT_TYPES, type EventType } from "@/lib/validations/webhook-events";
import type { DeliveryView, WebhooksView } from "@/lib/webhooks/studio";

const STATUS_WORDS = { pending: "Waiting to retry", delivered: "Delivered", failed: "Given up" } as const;
// While a delivery waits, the log is read again this often.
const REFRESH_MS = 10_000;

/** The receivers, the form that adds one, and the delivery log; writes post to the API and the page is read again. */
export default function WebhooksPageClient({ view }: { view: WebhooksView }) {
  const router = useRouter();
  const waiting = view.deliveries.some((d) => d.status === "pending");
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => router.refresh(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [waiting, router]);

  return (
    <>
      <h1>Webhooks</h1>
      <p>
        Each receiver is sent a JSON body when a note is published or changes status, a review is asked for, a comment or verdict is given, or a phase closes,
        signed with its secret in <code>X-Hub-Signature-256</code> (as GitHub signs) and named by <code>X-Field-Notes-Event-Id</code>. A receiver that fails is
        tried again, later each time, for three days; events reach it in order.
      </p>
      <Receivers view={view} />
      <AddReceiver />
      <Log deliveries={view.deliveries} />
    </>
  );
}

function useWrite() {
  const router = useRouter();
  // The answer is not read (z.unknown()): the page is read again from the server after the write.
  return useMutation({
    mutationFn: (w: { method: "POST"; body: unknown } | { method: "DELETE"; id: string }) =>
      studioFetch(w.method === "POST" ? "/api/studio/webhooks" : `/api/studio/webhooks/${w.id}`, z.unknown(), {
        method: w.method,
        ...(w.method === "POST" ? { body: w.body } : {}),
      }),
    onSuccess: () => router.refresh(),
  });
}

function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const body = error instanceof StudioApiError ? error.body?.error : null;
  return (
    <div role="alert" className={styles.error}>
      <p>{body?.message ?? (error as Error).message}</p>
      {body?.where && (
        <ul>
          {body.where.map((w) => (
            <li key={`${w.field}:${w.message}`}>
              {w.field}: {w.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Receivers({ view }: { view: WebhooksView }) {
  const remove = useWrite();
  return (
    <table className={styles.table}>
      <caption>Receivers</caption>
      <thead>
        <tr>
          <th scope="col">Address</th>
          <th scope="col">Events</th>
          <th scope="col">Added</th>
          <th scope="col">
            <span className="visually-hidden">Action</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {view.receivers.length === 0 && (
          <tr>
            <td colSpan={4}>No receivers yet: add one below, or set WEBHOOK_URLS on the server.</td>
          </tr>
        )}
        {view.receivers.map((r) => (
          <tr key={r.key}>
            <td>
              <code>{r.address}</code>
            </td>
            <td>{r.events.length ? r.events.join(", ") : "all"}</td>
            <td>
              {r.source === "environment" ? (
                "by the server's environment (WEBHOOK_URLS)"
              ) : (
                <>
                  by {r.by}, <ChangeTime iso={r.created ?? ""} />
                </>
              )}
            </td>
            <td>
              {r.id && (
                <Button size="small" variant="danger" disabled={remove.isPending} onClick={() => remove.mutate({ method: "DELETE", id: r.id! })}>
                  Remove <span className="visually-hidden">{r.address}</span>
                </Button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
      {remove.error ? (
        <tfoot>
          <tr>
            <td colSpan={4}>
              <ErrorNote error={remove.error} />
            </td>
          </tr>
        </tfoot>
      ) : null}
    </table>
  );
}

function AddReceiver() {
  const add = useWrite();
  const [url, setUrl] = useState("");
  const [secret, setSecret] = useState("");
  const [events, setEvents] = useState<EventType[]>([]);
  const toggle = (e: EventType) => setEvents((now) => (now.includes(e) ? now.filter((x) => x !== e) : [...now, e]));
  return (
    <form
      className={styles.field}
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate(
          { method: "POST", body: { url, secret, events } },
          {
            onSuccess: () => {
              setUrl("");
              setSecret("");
              setEvents([]);
            },
          },
        );
      }}
    >
      <h2>Add a receiver</h2>
      <label>
        Address (http or https)
        <input type="text" inputMode="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://chat.example.org/hooks/notes" />
      </label>
      <label>
        Secret (at least 16 characters; the receiver checks the signature with it)
        <input type="text" autoComplete="off" value={secret} onChange={(e) => setSecret(e.target.value)} />
      </label>
      <fieldset className={styles.events}>
        <legend>Events (none ticked: all of them)</legend>
        {EVENT_TYPES.map((e) => (
          <label key={e} style={{ display: "inline-flex", gap: "0.3rem", marginRight: "1rem" }}>
            <input type="checkbox" checked={events.includes(e)} onChange={() => toggle(e)} />
            {e}
          </label>
        ))}
      </fieldset>
      <p>
        <Button type="submit" variant="primary" disabled={add.isPending || !url.trim() || !secret}>
          Add receiver
        </Button>
      </p>
      <ErrorNote error={add.error} />
    </form>
  );
}

function Log({ deliveries }: { deliveries: DeliveryView[] }) {
  const router = useRouter();
  return (
    <>
      <table className={styles.table}>
        <caption>Delivery log (newest first)</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Receiver</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last answer</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.length === 0 && (
            <tr>
              <td colSpan={5}>Nothing sent yet.</td>
            </tr>
          )}
          {deliveries.map((d) => (
            <tr key={d.id} data-status={d.status}>
              <td>
                <code>{d.event.type}</code> <ChangeTime iso={d.created} />
                <br />
                {d.event.text}
              </td>
              <td>
                <code>{d.receiver.address}</code>
              </td>
              <td>
                {STATUS_WORDS[d.status]}
                {d.nextAt && <> (next try {exactTime(d.nextAt)})</>}
              </td>
              <td>{d.attempts}</td>
              <td>{d.lastError ?? (d.lastStatus ? `answered ${d.lastStatus}` : "not tried yet")}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Button onClick={() => router.refresh()}>Read the log again</Button>
    </>
  );
}
