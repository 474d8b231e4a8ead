import type { Note } from "@/lib/notes/schema";

/**
 * "All decision records" is one editorial order (higher `order` first): each note's place is its
 * own. The acceptance function's rule `order` reads the places on main from this map.
 */

/** order → the ids of the notes holding it (more than one only where a duplicate was made outside the app). */
export type EditorialOrders = ReadonlyMap<number, readonly string[]>;

export function ordersOf(notes: Iterable<Pick<Note, "id" | "order">>): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const n of notes) {
    const ids = out.get(n.order);
    if (ids) ids.push(n.id);
    else out.set(n.order, [n.id]);
  }
  return out;
}
