// What an amount field keeps of what is typed. Apart from format.ts: forms need it on every page,
// the decimal library behind the formatting only where amounts are shown.

/** Digits and one point, at most 8 decimals: what an amount field accepts as it is typed. */
export function cleanAmount(typed: string): string {
  const [whole = '', ...rest] = typed
    .replace(/,/g, '.')
    .replace(/[^\d.]/g, '')
    .split('.');
  return rest.length ? `${whole}.${rest.join('').slice(0, 8)}` : whole;
}
