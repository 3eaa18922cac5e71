// A cache that cannot grow with what callers send: at most `limit` entries, the least recently used
// dropped to make room. Pure (no I/O), so the server, the app and the console share it.

/**
 * A map of at most `limit` entries (least recently used out first). For things costly to make and cheap to keep
 * (Intl formatters: about 0.1 ms to make, tens of KB each), keyed by anything a caller may choose.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, V>();

  declare readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** How many entries are kept (at most `limit`). */
  get size(): number {
    return this.entries.size;
  }

  /** The entry of `key`, made by `make` (and kept) when there is none. */
  getOrMake(key: K, make: () => V): V {
    let value = this.entries.get(key);
    if (value !== undefined) {
      // Moved to the end: the Map's order is the order of last use.
      this.entries.delete(key);
    } else {
      value = make();
      if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value as K);
    }
    this.entries.set(key, value);
    return value;
  }
}
