// The merge of a store several tabs of the app save (lib/storage.ts, acrossTabs): loaded with the first such save.

/** An entry of an acrossTabs store's list: told apart by its `key`. */
type Keyed = { key: string };

/**
 * Three-way merge of one store's record: `theirs` (the record as saved now, by any tab) with the changes `mine` made
 * to `base` (the record as this tab last read or wrote it). In each list (entries told apart by `key`): an entry mine
 * removed is removed, one mine added is added at the end (in mine's order), one mine changed takes mine's fields, and
 * every other entry is theirs, in their order. A field that is no list is mine when mine changed it, else theirs.
 */
export function mergeEntries<T extends object>(base: T, mine: T, theirs: T): T {
  const merged: Record<string, unknown> = { ...(theirs as Record<string, unknown>) };
  const [was, now] = [base as Record<string, unknown>, mine as Record<string, unknown>];
  for (const field of Object.keys(now)) {
    const [before, after, other] = [was[field], now[field], merged[field]];
    if (Array.isArray(after) && Array.isArray(before) && Array.isArray(other)) {
      const byKey = (list: Keyed[]) => new Map(list.map((item) => [item.key, item]));
      const [beforeByKey, afterByKey] = [byKey(before as Keyed[]), byKey(after as Keyed[])];
      const kept = (other as Keyed[])
        .filter((item) => !(beforeByKey.has(item.key) && !afterByKey.has(item.key)))
        .map((item) => {
          const [old, changed] = [beforeByKey.get(item.key), afterByKey.get(item.key)];
          return old && changed && JSON.stringify(old) !== JSON.stringify(changed) ? changed : item;
        });
      const present = new Set(kept.map((item) => item.key));
      const added = (after as Keyed[]).filter((item) => !beforeByKey.has(item.key) && !present.has(item.key));
      merged[field] = [...kept, ...added];
    } else if (JSON.stringify(after) !== JSON.stringify(before)) merged[field] = after;
  }
  return merged as T;
}
