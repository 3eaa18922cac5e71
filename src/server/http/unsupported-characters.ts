// Characters no field of the API contract accepts: NUL (PostgreSQL refuses 0x00 in text, so it used to
// answer HTTP 500), a lone UTF-16 surrogate (no UTF-8 spelling: the database would store U+FFFD
// instead of what was sent) and U+FFFD itself, the REPLACEMENT CHARACTER a UTF-8 decoder puts where the bytes sent
// spelt no character (a raw 0xFF in a body, an escape such as %ED%A0%80 in a form: form-encoding.ts): what was meant
// is unknown, so nothing is stored in its place. Refused for every request before validation, so no handler sees them.
// eslint-disable-next-line no-control-regex -- NUL is what this looks for
const UNSUPPORTED = /\u0000|\uFFFD|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

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
