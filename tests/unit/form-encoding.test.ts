// Form bodies and query strings as the server reads them (src/server/http/form-encoding.ts).
import { expect, it } from 'vitest';
import { parseFormEncoded } from '../../src/server/http/form-encoding.ts';

it('reads escapes as UTF-8, a plus as a space, and an escape that spells no character as U+FFFD', () => {
  expect({ ...parseFormEncoded('name=%E0%B8%81+x&bad=ab%ED%A0%80cd&pct=50%25') }).toEqual({
    name: 'ก x',
    bad: 'ab\uFFFD\uFFFD\uFFFDcd',
    pct: '50%',
  });
});

it('gives a repeated name the list of its values, in order, however often it repeats', () => {
  expect({ ...parseFormEncoded('a=1&b=2&a=3&a=4') }).toEqual({ a: ['1', '3', '4'], b: '2' });
  const many = parseFormEncoded('a=&'.repeat(200_000));
  expect(many.a).toHaveLength(200_000);
});

it('takes __proto__ as a field like any other', () => {
  const fields = parseFormEncoded('__proto__=x&constructor=y');
  expect(fields['__proto__']).toBe('x');
  expect(fields['constructor']).toBe('y');
  expect(Object.getPrototypeOf(fields)).toBeNull();
});
