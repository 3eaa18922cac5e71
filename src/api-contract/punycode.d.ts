// The types of punycode.js (RFC 3492, the implementation Node.js itself once shipped), which ships none: its ES module
// build is imported by path, as a bare 'punycode' names Node.js's deprecated built-in module.
declare module 'punycode/punycode.es6.js' {
  /** The Unicode text a Punycode string (without 'xn--') stands for. @throws RangeError on input not Punycode. */
  export function decode(input: string): string;
  /** The Punycode string (without 'xn--') of a Unicode text. */
  export function encode(input: string): string;
}
