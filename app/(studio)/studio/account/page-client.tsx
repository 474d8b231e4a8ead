"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import styles from "@/components/studio/studio.module.css";
import { studioFetch, StudioApiError } from "@/lib/queries/fetch";
import { DISPLAY_NAME_MAX } from "@/lib/validations/account";

/** The display name form: one field, sent to PUT /api/studio/account; the page is read again after. */
export default function AccountPageClient({ id, displayName, local }: { id: string; displayName: string; local: boolean }) {
  const router = useRouter();
  const [value, setValue] = useState(displayName);
  const save = useMutation({
    // The answer is not read (z.unknown()): the page and the header are read again from the server.
    mutationFn: (name: string) => studioFetch("/api/studio/account", z.unknown(), { method: "PUT", body: { displayName: name } }),
    onSuccess: () => router.refresh(),
  });
  const error = save.error instanceof StudioApiError ? save.error.body?.error : null;
  return (
    <>
      <h1>Your name</h1>
      <p>
        You sign in as <code>{id}</code>; that stays your id. Commits you make, your bylines and your comments in review threads show your display name.
      </p>
      {local ? (
        <form
          className={styles.narrowForm}
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate(value);
          }}
        >
          <p className={styles.field}>
            <label htmlFor="display-name">Display name</label>
            <input
              type="text"
              id="display-name"
              name="displayName"
              value={value}
              maxLength={DISPLAY_NAME_MAX}
              onChange={(e) => setValue(e.target.value)}
              required
            />
          </p>
          <Button type="submit" variant="primary" disabled={save.isPending}>
            Save name
          </Button>
          {save.isSuccess && <p role="status">Saved.</p>}
          {save.error && (
            <div role="alert" className={styles.error}>
              <p>{error?.where?.[0]?.message ?? error?.message ?? save.error.message}</p>
            </div>
          )}
        </form>
      ) : (
        <p>You sign in through your provider, which names you here as {displayName}.</p>
      )}
    </>
  );
}
