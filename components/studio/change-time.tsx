"use client";

import { changeTimeLabel, exactTime } from "@/lib/hooks/change-time";
import { useClock } from "@/lib/hooks/use-clock";

/** A change's time in the studio: "2 h ago" or "3 December 2026", the exact time in its title (lib/hooks/change-time.ts). */
export function ChangeTime({ iso }: { iso: string }) {
  const now = useClock();
  return (
    <time dateTime={iso} title={exactTime(iso)}>
      {changeTimeLabel(iso, now)}
    </time>
  );
}
