import Link from "next/link";
import PublicNotFound from "./(public)/not-found";

/** An address that matches no route at all: the archive's 404, in a minimal frame. */
export default function NotFound() {
  return (
    <>
      <header className="site-header">
        <div className="site-header__inner">
          <Link className="site-name" href="/">
            Field Notes
          </Link>
        </div>
      </header>
      <main id="main" className="page">
        <PublicNotFound />
      </main>
    </>
  );
}
