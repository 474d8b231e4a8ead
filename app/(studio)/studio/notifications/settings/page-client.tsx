"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import type { NotificationSettings } from "@/lib/validations/notification-answers";
import { KIND_LABEL, NOTIFICATION_KINDS, type NotificationKind } from "@/lib/rules/notification-kinds";
import { useFeedAddress, useNotificationSettings, useSaveMailSettings } from "@/lib/queries/use-notifications";
import { StudioApiError } from "@/lib/queries/fetch";
import { ChangeTime } from "@/components/studio/change-time";
import { Button } from "@/components/ui/button";
import styles from "@/components/studio/notifications.module.css";

/**
 * Notification settings: where mail goes and which kinds are mailed (when the site sends mail), and
 * a secret feed address for a feed reader, shown once when it is made; a new one or a revocation
 * ends the old one.
 */
export default function NotificationSettingsClient({ initial }: { initial: NotificationSettings }) {
  const { data: settings = initial } = useNotificationSettings(initial);
  return (
    <div className={styles.page}>
      <header>
        <h1>Notification settings</h1>
        <p className={styles.meta}>
          <Link href="/studio/notifications">Back to notifications</Link>
        </p>
      </header>
      <MailForm settings={settings} />
      <FeedAddress settings={settings} />
    </div>
  );
}

function MailForm({ settings }: { settings: NotificationSettings }) {
  const save = useSaveMailSettings();
  const [email, setEmail] = useState(settings.mail.email ?? "");
  const [off, setOff] = useState<NotificationKind[]>(settings.mail.off);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ email, off });
  };
  const where = save.error instanceof StudioApiError ? save.error.body?.error.where : undefined;
  return (
    <section aria-labelledby="mail">
      <h2 id="mail">E-mail</h2>
      {!settings.mailEnabled ? <p className={styles.meta}>This site sends no mail (SMTP_URL is not set); your choices are kept for when it does.</p> : null}
      <form onSubmit={submit} noValidate>
        <div className={styles.field}>
          <label htmlFor="notification-email">Address for notification mail</label>
          <input
            id="notification-email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-describedby="notification-email-hint"
            aria-invalid={where?.some((w) => w.field === "email") ? true : undefined}
          />
          <span id="notification-email-hint" className={styles.meta}>
            Empty: no mail.
          </span>
        </div>
        <fieldset className={styles.kinds}>
          <legend>Mail me about</legend>
          {NOTIFICATION_KINDS.map((kind) => (
            <label key={kind}>
              <input
                type="checkbox"
                checked={!off.includes(kind)}
                onChange={(e) => setOff((now) => (e.target.checked ? now.filter((k) => k !== kind) : [...now, kind]))}
              />{" "}
              {KIND_LABEL[kind]}
            </label>
          ))}
        </fieldset>
        <Button type="submit" variant="primary" disabled={save.isPending}>
          Save mail settings
        </Button>
        <p className={styles.meta} role="status">
          {save.isSuccess ? "Saved." : ""}
        </p>
        {save.error ? (
          <p role="alert" className={styles.meta}>
            {save.error.message}
            {where?.length ? `: ${where.map((w) => `${w.field}: ${w.message}`).join("; ")}` : ""}
          </p>
        ) : null}
      </form>
    </section>
  );
}

function FeedAddress({ settings }: { settings: NotificationSettings }) {
  const { create, revoke } = useFeedAddress();
  const made = create.data && !revoke.isSuccess ? create.data : null;
  return (
    <section aria-labelledby="feed">
      <h2 id="feed">Feed</h2>
      <p className={styles.meta}>
        Your notifications as an Atom feed, for a feed reader. Its address is secret: anyone who has it can read your notifications. A new address ends the old
        one.
      </p>
      {settings.feed ? (
        <p className={styles.meta}>
          You have a feed address, made <ChangeTime iso={settings.feed.created} />.
        </p>
      ) : (
        <p className={styles.meta}>You have no feed address.</p>
      )}
      {made ? (
        <div className={styles.field}>
          <label htmlFor="feed-url">Your feed address (shown once: copy it now)</label>
          <input id="feed-url" className={styles.feedUrl} readOnly value={made.url} onFocus={(e) => e.target.select()} />
        </div>
      ) : null}
      <div className={styles.toolbar}>
        <Button onClick={() => create.mutate()} disabled={create.isPending}>
          {settings.feed ? "Make a new feed address" : "Make a feed address"}
        </Button>
        {settings.feed ? (
          <Button variant="danger" onClick={() => revoke.mutate()} disabled={revoke.isPending}>
            Revoke the feed address
          </Button>
        ) : null}
      </div>
      {(create.error ?? revoke.error) ? (
        <p role="alert" className={styles.meta}>
          {(create.error ?? revoke.error)?.message}
        </p>
      ) : null}
    </section>
  );
}
