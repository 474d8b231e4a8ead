import type { ReactNode } from "react";

/**
 * The badge shape (a pill with an icon and a word; styles in app/styles/ui.css). `tone` names a
 * status colour pair (status--<tone>), so a studio badge such as "in review" can borrow one; the
 * word must carry the meaning on its own, the icon repeats it as a shape, the colour only helps.
 */
export function Badge({ tone, icon, children, title }: { tone?: string; icon?: ReactNode; children: ReactNode; title?: string }) {
  return (
    <span className={tone ? `badge status--${tone}` : "badge"} title={title}>
      {icon}
      <span>{children}</span>
    </span>
  );
}
