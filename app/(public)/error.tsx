"use client";

/** When the content repository cannot be read: say so, without a stack trace, and offer a retry. */
export default function PublicError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="not-found">
      <p className="kicker">Error</p>
      <h1>The archive could not be read just now</h1>
      <p className="lede">The content repository did not answer as expected. Try again in a moment; the notes are safe in git.</p>
      <p>
        <button type="button" onClick={reset}>
          Try again
        </button>
      </p>
    </div>
  );
}
