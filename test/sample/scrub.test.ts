import { describe, expect, it } from 'vitest';
import { ibanValid, luhnValid } from '../../src/sample/checks.js';
import { noPii, scrub, type PiiCounts } from '../../src/sample/scrub.js';

/** The scrubbed text and what was counted (only the kinds found). */
function scrubbed(text: string): { text: string; found: Partial<PiiCounts> } {
  const counts = noPii();
  const out = scrub(text, counts);
  return { text: out, found: Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0)) };
}

describe('check digits', () => {
  it('Luhn: the test card numbers pass, one digit off fails', () => {
    expect(luhnValid('4111111111111111')).toBe(true); // Visa test number
    expect(luhnValid('5500000000000004')).toBe(true); // Mastercard
    expect(luhnValid('378282246310005')).toBe(true); // Amex, 15 digits
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('79927398713')).toBe(true); // the textbook example: 7+9+9+4+7+6+9+7+7+2+3 = 70
    expect(luhnValid('79927398710')).toBe(false);
    expect(luhnValid('')).toBe(false);
  });

  it('IBAN: mod 97 of the rearranged number is 1; any case; length 15-34', () => {
    expect(ibanValid('DE89370400440532013000')).toBe(true);
    expect(ibanValid('GB82WEST12345698765432')).toBe(true);
    expect(ibanValid('gb82west12345698765432')).toBe(true);
    expect(ibanValid('NO9386011117947')).toBe(true); // Norway, the shortest (15)
    expect(ibanValid('DE89370400440532013001')).toBe(false);
    expect(ibanValid('GB82WEST1234569876543')).toBe(false);
    expect(ibanValid('DE8937040044')).toBe(false);
  });
});

describe('scrub', () => {
  it('e-mail addresses, the full stop of a sentence left out', () => {
    expect(scrubbed('my email is John.Doe+tag@example.co.uk.')).toEqual({ text: 'my email is [email].', found: { email: 1 } });
    expect(scrubbed('a@b.de or ü@bücher.de?')).toEqual({ text: '[email] or [email]?', found: { email: 2 } });
  });

  it('not an address: a mention, a host without a dot, @ alone, a domain without a top level of letters', () => {
    for (const text of ['@support how do i pay', 'write to a@localhost', 'a @ b', 'x@@y', 'me@1.2', 'user@-bad.com']) expect(scrubbed(text)).toEqual({ text, found: {} });
  });

  it('IBANs, whole or in groups of four, only when mod-97 valid', () => {
    expect(scrubbed('IBAN DE89 3704 0044 0532 0130 00 please')).toEqual({ text: 'IBAN [iban] please', found: { iban: 1 } });
    expect(scrubbed('to gb82west12345698765432.')).toEqual({ text: 'to [iban].', found: { iban: 1 } });
    // one digit off: not an IBAN; its long group of digits is still a number
    expect(scrubbed('DE89370400440532013001')).toEqual({ text: 'DE[number]', found: { number: 1 } });
  });

  it('card numbers: 13-19 digits joined by spaces or dashes, Luhn valid', () => {
    expect(scrubbed('card 4111 1111 1111 1111 exp 12/27')).toEqual({ text: 'card [card] exp 12/27', found: { card: 1 } });
    expect(scrubbed('4111-1111-1111-1111')).toEqual({ text: '[card]', found: { card: 1 } });
    expect(scrubbed('amex 378282246310005')).toEqual({ text: 'amex [card]', found: { card: 1 } });
    expect(scrubbed('４１１１ １１１１ １１１１ １１１１')).toEqual({ text: '[card]', found: { card: 1 } });
    // Luhn-invalid: an order number, scrubbed as a number
    expect(scrubbed('order 4111111111111112')).toEqual({ text: 'order [number]', found: { number: 1 } });
  });

  it('phone numbers in international and national forms', () => {
    const phones = [
      'call +44 20 7946 0958 now',
      'call 0044 20 7946 0958 now',
      'call +44 (0)20 7946 0958 now',
      'call 020 7946 0958 now',
      'call 06 12 34 56 78 now',
      'call 06.12.34.56.78 now',
      'call +33 6 12 34 56 78 now',
      'call (555) 123-4567 now',
      'call 555-123-4567 now',
      'call 555.123.4567 now',
      'call 1-800-555-0199 now',
      'call 555-1234 now',
      'call 0612345678 now',
    ];
    for (const text of phones) expect(scrubbed(text), text).toEqual({ text: 'call [phone] now', found: { phone: 1 } });
  });

  it('keeps dates, times, versions, addresses of machines, amounts and short numbers', () => {
    const kept = [
      'on 2026-11-28 at 10:30',
      'since 28.11.2026',
      'since 11-28-26',
      'on 01/02/2026',
      'version 1.2.3',
      'build 10.0.19041.1234',
      'ip 192.168.1.1',
      'price 1,000,000',
      'room 12345',
      'in 2026',
      'error 404 and 500',
      '3 items for 20 euro',
    ];
    for (const text of kept) expect(scrubbed(text), text).toEqual({ text, found: {} });
  });

  it('long runs of digits, alone or in a word', () => {
    expect(scrubbed('order 123456 and AB1234567')).toEqual({ text: 'order [number] and AB[number]', found: { number: 2 } });
    expect(scrubbed('amount 1000000')).toEqual({ text: 'amount [number]', found: { number: 1 } });
  });

  it('several kinds in one text, each counted', () => {
    expect(scrubbed('I am ann@example.org, +44 20 7946 0958, card 4111111111111111, order 987654')).toEqual({
      text: 'I am [email], [phone], card [card], order [number]',
      found: { email: 1, phone: 1, card: 1, number: 1 },
    });
  });

  it('hostile texts come back whole (each scanner reads a character a bounded number of times)', () => {
    for (const text of ['@'.repeat(20_000), 'a@'.repeat(10_000), `${'a.'.repeat(10_000)}@`, '1 '.repeat(10_000), '1-'.repeat(10_000), 'DE89 '.repeat(4_000), '(1) '.repeat(5_000)]) {
      const out = scrubbed(text);
      expect(out.found.email ?? 0).toBe(0);
      expect(out.text.length).toBeGreaterThan(0);
    }
  });
});
