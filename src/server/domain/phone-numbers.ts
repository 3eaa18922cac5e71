// Mobile numbers as one canonical value: E.164 (`+66812345678`), read by libphonenumber's rules with Thailand as the
// default country, so every way a person writes one handset is stored, looked up, rate-limited and texted as one.
import { like, or, type Column, type SQL } from 'drizzle-orm';
import { getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/mobile';
import { AREA_CODE } from '../../api-contract/constants.ts';
import { PHONE_SEPARATORS } from '../../api-contract/fields.ts';
import { texts } from '../../api-contract/texts.ts';
import { asciiDigits } from '../../api-contract/typed-digits.ts';
import { Refusal } from './refusal.ts';

/** The country a number written without its country code belongs to: Thailand, whose calling code is AREA_CODE. */
export const DEFAULT_PHONE_COUNTRY: CountryCode = 'TH';
if (getCountryCallingCode(DEFAULT_PHONE_COUNTRY) !== AREA_CODE)
  throw new Error(`the default phone country ${DEFAULT_PHONE_COUNTRY} does not have the area code ${AREA_CODE}`);

/**
 * `text` with the digits of the six languages' systems made ASCII (typed-digits.ts), a full-width plus sign (what
 * Chinese and Japanese input methods type) made `+`, and each separator the phone fields let through (PHONE_SEPARATORS)
 * made a space: libphonenumber reads only some of them (not a thin or narrow no-break space, a tab or a tilde), and a
 * number its field took must not be refused for how its groups were spaced.
 */
const phoneDigits = (text: string): string => asciiDigits(text).replaceAll('\uff0b', '+').replace(SEPARATORS, ' ');

/**
 * A mobile number as E.164 (`+` and up to 15 digits), or null when `typed` is not one. Read by libphonenumber's
 * metadata of mobile numbers: a number without its country code is Thai (`0812345678`, `812345678`), one with it may
 * be written `66812345678`, `+66 81 234 5678`, `001 66 …` or `0066 …`; another country's number is accepted when
 * written with its own code (`+44 7400 123456`, `0044 7400 123456`). Digits may be ASCII, Arabic-Indic, Extended
 * Arabic-Indic, Devanagari, Thai or full-width; spaces, dashes, dots and brackets (PHONE_SEPARATORS: a Japanese
 * keyboard's full-width hyphen or prolonged sound mark too) are ignored. A fixed line is refused:
 * the number receives SMS codes.
 */
export function canonicalMobile(typed: string): string | null {
  const written = phoneDigits(typed);
  const number = parsePhoneNumberFromString(written, DEFAULT_PHONE_COUNTRY);
  if (number?.isValid()) return number.number;
  // "00" then the country code: the international prefix of most of the world (ITU-T E.164's recommended one), where
  // Thailand's is 001. No Thai number starts with 00, so such a number is read as international.
  const international = INTERNATIONAL_00.exec(written);
  const abroad = international ? parsePhoneNumberFromString(`+${international[1]}`) : undefined;
  return abroad?.isValid() ? abroad.number : null;
}

/** Every separator of a written number (PHONE_SEPARATORS), to leave them out. */
const SEPARATORS = new RegExp(PHONE_SEPARATORS, 'g');

/** A number written with the international prefix 00 (spaces and the like allowed after it): what follows it. */
const INTERNATIONAL_00 = new RegExp(`^\\s*00\\s*([1-9](?:\\d|${PHONE_SEPARATORS})*)$`);

/** `canonicalMobile`, or a refusal with 'Please enter a valid mobile number!' (what every phone field says). */
export function mobileNumber(typed: string): string {
  const number = canonicalMobile(typed);
  if (number === null) throw new Refusal(texts.phoneFormat.id);
  return number;
}

/**
 * What a search for `query` looks for at the start of a stored number: the query as typed (a number stored before
 * numbers were canonical), and the E.164 form of a whole number, or of the beginning of one (`0812` and `66812` both
 * start `+66812`; `+44 74` starts `+4474`). Digits of every system the six languages type count.
 */
export function phonePrefixes(query: string): string[] {
  const number = canonicalMobile(query);
  const digits = phoneDigits(query).replace(SEPARATORS, '');
  const prefixes = new Set([query]);
  if (number !== null) prefixes.add(number);
  else if (/^\+\d+$/.test(digits)) prefixes.add(digits);
  else if (/^00[1-9]\d*$/.test(digits)) prefixes.add(`+${digits.slice(2)}`);
  else if (/^0\d+$/.test(digits)) prefixes.add(`+${AREA_CODE}${digits.slice(1)}`);
  else if (/^\d+$/.test(digits)) {
    prefixes.add(`+${digits}`);
    prefixes.add(`+${AREA_CODE}${digits}`);
  }
  return [...prefixes];
}

/** A condition: `column` (a stored mobile number) starts with one of `phonePrefixes(query)`. */
export function phoneStartsWith(column: Column, query: string): SQL {
  const escape = (text: string) => `${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  return or(...phonePrefixes(query).map((prefix) => like(column, escape(prefix))))!;
}
