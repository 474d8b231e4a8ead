import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { siteOrigin } from "@/lib/public/site-origin";
import { fontVariables } from "./fonts";
import "./globals.css";
// Diagrams and highlighted code in notes (lib/render), after the site's tokens they read.
import "@/lib/render/figures.css";

/**
 * The root of every page (public, studio, errors): the document, its language and base URL, and
 * the three self-hosted typefaces as CSS variables (app/fonts.ts) that both halves of the site read.
 */

export async function generateMetadata(): Promise<Metadata> {
  return {
    metadataBase: new URL(await siteOrigin()),
    title: { default: "Field Notes", template: "%s · Field Notes" },
    description: "Evidence-bound architecture notes.",
    formatDetection: { telephone: false, address: false, email: false },
  };
}

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  colorScheme: "light dark",
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#fbfaf7" },
    { media: "(prefers-color-scheme: dark)", color: "#141517" },
  ],
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" className={fontVariables}>
      <body>{children}</body>
    </html>
  );
}
