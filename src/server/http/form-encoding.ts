// Form bodies and query strings read by the WHATWG URL Standard's application/x-www-form-urlencoded parser (the one
// browsers use, URLSearchParams): '+' is a space, a percent-escape is a byte, and the bytes are read as UTF-8, so an
// escape that spells no character (an encoded lone surrogate, %FF, the overlong %C0%AF) becomes U+FFFD, which the
// check of unsupported characters refuses (unsupported-characters.ts). The default parser kept such a value as its
// literal escape text, and stored it. A name sent more than once gives the list of its values, which no field of the
// API contract takes, so the call is refused rather than one of them picked.

/** The fields of a form-encoded `text`: each name's value, or its values when the name repeats. */
export function parseFormEncoded(text: string): Record<string, string | string[]> {
  // No prototype: a field named __proto__ or constructor is a field like any other.
  const fields = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of new URLSearchParams(text)) {
    const before = fields[name];
    // Appended in place: a body repeating one name a hundred thousand times costs as many steps, not their square.
    if (before === undefined) fields[name] = value;
    else if (Array.isArray(before)) before.push(value);
    else fields[name] = [before, value];
  }
  return fields;
}
