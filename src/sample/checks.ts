/**
 * The check digits that tell a card or IBAN number from any other run of digits: a scrubbed `[card]` or `[iban]`
 * is one that passes its check, so an order number of 16 digits is a `[number]`, not a card.
 */

/** The value of a decimal digit: ASCII, full-width (０-９), Arabic-Indic (٠-٩) or Extended Arabic-Indic (۰-۹); -1 for anything else. */
export function digitValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0xff10 && code <= 0xff19) return code - 0xff10;
  if (code >= 0x660 && code <= 0x669) return code - 0x660;
  if (code >= 0x6f0 && code <= 0x6f9) return code - 0x6f0;
  return -1;
}

/** Luhn (ISO/IEC 7812): the check digit of every payment card number. `digits`: the digits only. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let d = digitValue(digits.charCodeAt(i));
    if (d < 0) return false;
    if (double) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/**
 * ISO 13616: an IBAN (spaces removed, any case) is two letters, two check digits and 11-30 letters or digits, and
 * its first four characters moved to the end, letters as 10-35, leave 1 modulo 97.
 */
export function ibanValid(iban: string): boolean {
  if (iban.length < 15 || iban.length > 34) return false;
  const s = iban.toUpperCase();
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/.test(s)) return false;
  let rest = 0;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt((k + 4) % s.length);
    const v = c <= 0x39 ? c - 0x30 : c - 55; // A = 10
    rest = (rest * (v >= 10 ? 100 : 10) + v) % 97;
  }
  return rest === 1;
}
