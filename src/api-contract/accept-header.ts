// The lists of HTTP's Accept-* headers (Accept-Language, Accept-Encoding): `br, gzip;q=0.8, *;q=0`.

/**
 * Each token of `header` with its weight (`q`, 1 when not given; one that does not read as a number weighs nothing),
 * the heaviest first and, among equals, in the header's order.
 */
export function acceptHeader(header: string | undefined): { token: string; weight: number }[] {
  return (header ?? '')
    .split(',')
    .map((part, nth) => {
      const [token = '', ...params] = part.split(';').map((item) => item.trim());
      const q = params.find((param) => param.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { token, weight: Number.isNaN(weight) ? 0 : weight, nth };
    })
    .filter(({ token }) => token !== '')
    .sort((a, b) => b.weight - a.weight || a.nth - b.nth)
    .map(({ token, weight }) => ({ token, weight }));
}
