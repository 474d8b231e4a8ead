/** Every react-query key the studio uses, in one place, so an update knows what to refresh. */
export const studioKeys = {
  all: ["studio"] as const,
  notes: () => [...studioKeys.all, "notes"] as const,
  note: (id: string) => [...studioKeys.all, "note", id] as const,
};
