// Characters no field of the API contract accepts: NUL (PostgreSQL refuses 0x00 in text, so it used to
// answer HTTP 500) and a lone UTF-16 surrogate (no UTF-8 spelling: the database would store U+FFFD
// instead of what was sent). Refused for every request before validation, so no handler sees them.
// eslint-disable-next-line no-control-regex -- NUL is what this looks for
const UNSUPPORTED = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when a request's parsed body or query holds such a character in any value or key, at any depth. */
export function hasUnsupportedCharacters(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return UNSUPPORTED.test(value);
  if (typeof value !== 'object' || value === null) return false;
  if (depth > 32) return true; // nothing in the API contract nests; a deeper body is hostile
  if (Array.isArray(value)) return value.some((item) => hasUnsupportedCharacters(item, depth + 1));
  return Object.entries(value).some(
    ([key, item]) => UNSUPPORTED.test(key) || hasUnsupportedCharacters(item, depth + 1),
  );
}
