import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { currentActor } from "@/lib/auth/actor";
import { SiteHeader } from "@/components/site-header";
import { StudioProviders } from "@/components/studio/providers";
import { SignOutButton } from "@/components/studio/sign-out-button";
import { NotificationsLink } from "@/components/studio/notifications-link";
import styles from "@/components/studio/studio.module.css";

/**
 * The studio's frame: the same header as the public site (components/site-header.tsx), with the
 * studio's links and who is signed in. Access is checked by each page (a redirect to sign in for
 * /studio, a 404 for a draft's address) and again by every API handler; a layout is not re-run on
 * client navigation, so it only shows who is signed in.
 */

export const metadata: Metadata = { robots: { index: false, follow: false } };

export default async function StudioLayout({ children }: { children: ReactNode }) {
  const actor = await currentActor();
  return (
    <StudioProviders>
      <div className={`frame ${styles.frame}`}>
        <SiteHeader
          label="Studio"
          section="Studio"
          links={
            actor
              ? [
                  { href: "/studio", label: "Notes" },
                  { href: "/studio/reviews", label: "Reviews" },
                  { href: "/studio/phases", label: "Phases" },
                  ...(actor.role === "author"
                    ? [
                        { href: "/studio/import", label: "Import" },
                        { href: "/studio/webhooks", label: "Webhooks" },
                      ]
                    : []),
                  { href: "/studio/account", label: "Your name" },
                ]
              : []
          }
        >
          {actor ? (
            <>
              <NotificationsLink />
              <span className={styles.who}>
                Signed in as <strong>{actor.name}</strong> ({actor.role})
              </span>
              <SignOutButton />
            </>
          ) : (
            <Link className={styles.who} href="/sign-in">
              Sign in
            </Link>
          )}
        </SiteHeader>
        <main id="main" className={styles.main}>
          {children}
        </main>
      </div>
    </StudioProviders>
  );
}
