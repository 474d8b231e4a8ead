import Link from "next/link";
import type { ComponentProps, ComponentPropsWithoutRef } from "react";

/**
 * The one button of the public site and the studio (styles in app/styles/ui.css). Variants:
 * "primary" for the one action a screen is for (Save, Approve, Publish), "secondary" for the
 * others, "quiet" for low-weight actions inside text or lists; "danger" for what cannot be undone.
 */
export type ButtonVariant = "primary" | "secondary" | "quiet" | "danger";
export type ButtonSize = "normal" | "small";

/** The class list for a button look, for an element that is not <Button> (a <summary>, a label). */
export function buttonClass(variant: ButtonVariant = "secondary", size: ButtonSize = "normal", extra?: string): string {
  return ["button", `button--${variant}`, size === "small" ? "button--small" : null, extra].filter(Boolean).join(" ");
}

// With its ref (React 19 passes it as a prop): a form that closes gives focus back to the button that opened it.
type ButtonProps = ComponentProps<"button"> & { variant?: ButtonVariant; size?: ButtonSize };

export function Button({ variant = "secondary", size = "normal", className, type = "button", ...rest }: ButtonProps) {
  return <button type={type} className={buttonClass(variant, size, className)} {...rest} />;
}

type ButtonLinkProps = ComponentPropsWithoutRef<typeof Link> & { variant?: ButtonVariant; size?: ButtonSize };

/** A link that looks like a button: navigation (it has an href), shown as an action. */
export function ButtonLink({ variant = "secondary", size = "normal", className, ...rest }: ButtonLinkProps) {
  return <Link className={buttonClass(variant, size, className)} {...rest} />;
}
