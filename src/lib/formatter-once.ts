// Intl formatters made once: no app state, so the customer app and the console both use it.
import { BoundedCache } from '../api-contract/bounded-cache.ts';

/** How many formatters are kept: the app's kinds × its six languages fit many times over; beyond, the least used go. */
export const FORMATTERS_KEPT = 256;

const madeFormatters = new BoundedCache<string, unknown>(FORMATTERS_KEPT);

/**
 * The formatter `make` gives, made once per key (what it formats, its language and options): an Intl formatter costs
 * far more to make than to use (0.13 ms against 0.002 ms in Node), and a list formats many values in one render. At
 * most FORMATTERS_KEPT are kept, whatever keys are asked for.
 */
export function formatterOnce<T>(key: string, make: () => T): T {
  return madeFormatters.getOrMake(key, make) as T;
}

/** How many formatters are kept now (for tests). */
export const formattersKept = () => madeFormatters.size;
