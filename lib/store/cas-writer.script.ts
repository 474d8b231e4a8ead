import { createContentStore, DEFAULT_BRANCH, RefConflictError } from "./api";
import { noteFile } from "./testing";

/**
 * A separate writer process for the cross-process test: `tsx cas-writer.script.ts <gitdir> <name> <count>`
 * commits `count` notes to main, re-reading the head and retrying whenever it lost the race.
 */
async function main() {
  const [gitdir, name, count] = process.argv.slice(2);
  if (!gitdir || !name || !count) throw new Error("usage: cas-writer.script.ts <gitdir> <name> <count>");
  const store = createContentStore(gitdir);
  let conflicts = 0;
  for (let i = 0; i < Number(count); i++) {
    const id = `${name}-${String(i).padStart(3, "0")}`;
    for (;;) {
      const head = await store.resolve(DEFAULT_BRANCH);
      try {
        await store.commit({
          ref: DEFAULT_BRANCH,
          expected: head,
          author: { name, email: `${name.toLowerCase()}@example.org` },
          message: `${name} writes ${id}`,
          changes: { [`notes/${id}.md`]: noteFile(id) },
        });
        break;
      } catch (e) {
        if (!(e instanceof RefConflictError)) throw e;
        conflicts++;
      }
    }
  }
  process.stdout.write(JSON.stringify({ name, conflicts }));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
