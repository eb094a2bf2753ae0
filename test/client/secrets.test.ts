import { describe, expect, it } from 'vitest';
import { Secrets, type Secret } from '../../src/client/secrets/secrets.js';
import { suppliedSecrets, tooShortWarnings, urlSecrets } from '../../src/client/secrets/supplied.js';
import { decode, FAMILIES, fold } from '../../src/client/secrets/views.js';
import { mulberry32 } from '../../src/util/random.js';
import { toWindows1252, windows1252 } from '../../src/util/windows-1252.js';

// The one masking module: every secret the user gave, in every form a service, a proxy or an error page writes it
// back in, found by literal search (no regular expression built from a secret), linear in the text.

const code = (value: string): Secrets => new Secrets([{ kind: 'agent code', value }]);
const json = (s: string): string => JSON.stringify(s).slice(1, -1);
const entities = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const unicodeEscapes = (s: string): string => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/** Every form of `secret` the masking must find, by name. */
function formsOf(secret: string): [string, string][] {
  const cp1252 = toWindows1252(secret);
  return [
    ['raw', secret],
    ['JSON-escaped', json(secret)],
    ['JSON-escaped twice', json(json(secret))],
    ['JSON-escaped three times', json(json(json(secret)))],
    ['\\u escapes', unicodeEscapes(secret)],
    ['\\u escapes, upper-case hex', unicodeEscapes(secret).toUpperCase().replace(/\\U/g, '\\u')],
    ['\\u escapes escaped again', json(unicodeEscapes(secret))],
    ['\\u{...} escapes', [...secret].map((c) => `\\u{${c.codePointAt(0)!.toString(16)}}`).join('')],
    ['\\x escapes', [...secret].map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')],
    ['HTML-escaped', entities(secret)],
    ['HTML-escaped twice', entities(entities(secret))],
    ['decimal references', [...secret].map((c) => `&#${c.codePointAt(0)};`).join('')],
    ['hex references', [...secret].map((c) => `&#x${c.codePointAt(0)!.toString(16).toUpperCase()};`).join('')],
    ['references without ;', [...secret].map((c) => `&#${c.codePointAt(0)}`).join('')],
    ['named references', entities(secret).replace(/é/g, '&eacute;').replace(/ÿ/g, '&yuml;').replace(/ß/g, '&szlig;').replace(/ /g, '&nbsp;')],
    ['named references without ;', entities(secret).replace(/é/g, '&eacute').replace(/ß/g, '&szlig')],
    ['HTML inside JSON', json(entities(secret))],
    ['JSON inside HTML', entities(json(secret))],
    ['URL-encoded', encodeURIComponent(secret)],
    ['URL-encoded, lower-case hex', encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
    ['URL-encoded twice', encodeURIComponent(encodeURIComponent(secret))],
    ['form-encoded', encodeURIComponent(secret).replace(/%20/g, '+')],
    ['URL-encoded as windows-1252', cp1252 ? [...cp1252].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('') : secret],
    ['%u escapes', [...secret].map((c) => `%u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
    ['URL-encoded inside JSON', json(encodeURIComponent(secret))],
    ['CSV-quoted', secret.replace(/"/g, '""')],
    ['whitespace collapsed', secret.replace(/\s+/g, ' ')],
    ['whitespace changed', secret.replace(/ +/g, '\n\t\u00a0')],
    ['a soft hyphen and a zero-width space inside, as references', entities(secret).replace(/^(.)(.)/u, '$1&shy;$2&#8203;')],
    ['UTF-8 read as windows-1252', windows1252(Buffer.from(secret, 'utf8'))],
    ['UTF-8 read as Latin-1', Buffer.from(secret, 'utf8').toString('latin1')],
    ['windows-1252 read as UTF-8', cp1252 ? cp1252.toString('utf8') : secret],
    ['decomposed (NFD)', secret.normalize('NFD')],
    ['decomposed, URL-encoded', encodeURIComponent(secret.normalize('NFD'))],
    ['a raw soft hyphen and zero-width space inside', [...secret].map((c, i) => (i === 1 ? `\u00ad${c}` : i === 3 ? `\u200b${c}` : c)).join('')],
    ['other raw invisible characters inside', [...secret].map((c, i) => `${c}${'\u200c\u200d\u2060\ufeff'[i % 5] ?? ''}`).join('')],
    ['a raw soft hyphen inside, JSON-escaped', json([...secret].map((c, i) => (i === 2 ? `\u00ad${c}` : c)).join(''))],
    ['upper case', secret.toUpperCase()],
    ['lower case', secret.toLowerCase()],
    ['upper case, JSON-escaped', json(secret.toUpperCase())],
    ['lower case, URL-encoded (lower-case hex)', encodeURIComponent(secret.toLowerCase()).toLowerCase()],
    ['lower case, a raw zero-width space inside', [...secret.toLowerCase()].map((c, i) => (i === 2 ? `\u200b${c}` : c)).join('')],
    ['base64', Buffer.from(secret).toString('base64')],
    ['base64url', Buffer.from(secret).toString('base64url')],
  ];
}

const SECRETS = ['Zq"8\\k&<W/m  é+x', 'Y\\"DU  &amp;<iA3ApÿßqE', 'abcd-1234', 'tok%41x&lt;9', 'pä+ss/wörd=='];

describe('Secrets.mask', () => {
  for (const secret of SECRETS) {
    it(`finds ${JSON.stringify(secret)} in every form, and masks only it`, () => {
      const secrets = code(secret);
      for (const [what, form] of formsOf(secret)) {
        const text = `before: ${form} :after`;
        expect(secrets.holds(text), what).toBe(true);
        expect(secrets.mask(text), `${what}: ${form}`).toBe('before: <agent code> :after');
      }
    });
  }

  it('leaves a text without the secret as it is (a near miss, a prefix, another accent)', () => {
    const secrets = code('Zq"8\\k&<W/m  é+x');
    for (const text of ['Zq"8\\k&<W/m é+', 'zq"8\\k&<w/m  É+', 'Zq"8\\k&<W/m  e+x', 'nothing here', '']) {
      expect(secrets.holds(text), text).toBe(false);
      expect(secrets.mask(text)).toBe(text);
    }
  });

  it('finds a code in any casing, but one written like a word (bill, Bill, BILL) only in its own case', () => {
    expect(code('Zq8w-k3Vx').mask('zQ8W-K3vX ZQ8W-K3VX zq8w-k3vx')).toBe('<agent code> <agent code> <agent code>');
    expect(code('Grüße-42').mask('GRÜSSE-42, grüße-42')).toBe('<agent code>, <agent code>');
    expect(code('ZqWxKpLm').mask('zqwxkplm')).toBe('<agent code>'); // letters of both cases inside: no word
    expect(code('bill').mask('Bill, BILL, billing, bill')).toBe('Bill, BILL, <agent code>ing, <agent code>');
    expect(code('Bill').mask('bill, BILL, Billing')).toBe('bill, BILL, <agent code>ing');
    expect(code('METER').mask('meter, Meter, METERS')).toBe('meter, Meter, <agent code>S');
  });

  it('finds a raw invisible character anywhere inside a code, escaped or not, and masks the whole', () => {
    const secret = 'Zq7Secr3tKey+/=9x';
    const body = JSON.stringify({ answer: `x ${secret.slice(0, 9)}\u00ad${secret.slice(9)}`, error: `invalid wikiclone_code Zq7Secr3t\u00adKey+/=9x` });
    expect(code(secret).mask(body)).toBe(JSON.stringify({ answer: 'x <agent code>', error: 'invalid wikiclone_code <agent code>' }));
    for (const invisible of ['\0', '\u00ad', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff']) {
      const text = `a ${secret.slice(0, 3)}${invisible}${secret.slice(3, 5)}${invisible}${invisible}${secret.slice(5)} b`;
      expect(code(secret).mask(text), JSON.stringify(invisible)).toBe('a <agent code> b');
    }
  });

  it('finds base64 of a code inside a larger base64 text at each of the 3 alignments, masking every character its bits reach', () => {
    const secret = 'Zq7Secr3tKey+/=9x';
    const n = Buffer.byteLength(secret);
    for (const prefix of ['wikiclone_code: ', 'x-wikiclone_code: ', 'xx-wikiclone_code: ']) {
      const p = Buffer.byteLength(prefix);
      for (const encoding of ['base64', 'base64url'] as const) {
        const dump = Buffer.from(`${prefix}${secret}\r\nhost: example.org\r\n`).toString(encoding);
        // characters made of the prefix's bits only, the mask, characters made of what follows only
        const expected = `${dump.slice(0, Math.floor((8 * p) / 6))}<agent code>${dump.slice(Math.ceil((8 * (p + n)) / 6))}`;
        expect(code(secret).mask(`headers: ${dump} end`), `${encoding} at ${p % 3}`).toBe(`headers: ${expected} end`);
      }
    }
  });

  it('masks every occurrence, overlapping ones as one, and keeps the text around them', () => {
    const secrets = code('abab');
    expect(secrets.mask('x ababab y abab')).toBe('x <agent code> y <agent code>');
    expect(code('bill').mask('pay your bill, billing, b&#105;ll, b%69ll, \\u0062ill')).toBe('pay your <agent code>, <agent code>ing, <agent code>, <agent code>, <agent code>');
  });

  it('masks a JSON body so that it stays JSON, in every string and key', () => {
    const secret = 'Zq"8\\k&<W/m  é+x';
    const body = JSON.stringify({ answers: [{ answer: `x ${secret} y`, [secret]: [secret], tags: `a|${secret}|b` }] });
    expect(JSON.parse(code(secret).mask(body))).toEqual({ answers: [{ answer: 'x <agent code> y', '<agent code>': ['<agent code>'], tags: 'a|<agent code>|b' }] });
  });

  it('names each kind of secret by its own mask, never by a piece of it', () => {
    const secrets = new Secrets([
      { kind: 'agent code', value: 'code-7Qz3' },
      { kind: 'password', value: 'Pw-k7Qz3' },
      { kind: 'query value', value: 'Tok-m9Xw4' },
      { kind: 'credentials', value: 'dXNlcjpQdy1rN1F6Mw==' },
      { kind: 'user name', value: 'ghp_tokenAsUser' },
    ]);
    expect(secrets.mask('code-7Qz3 Pw-k7Qz3 Tok-m9Xw4 Basic dXNlcjpQdy1rN1F6Mw== ghp_tokenAsUser')).toBe(
      '<agent code> <password> <query value> Basic <credentials> <user name>',
    );
  });

  it('does not mask a secret shorter than 4 characters (the run warns about it instead)', () => {
    expect(code('abc').mask('abc abc')).toBe('abc abc');
    expect(code('a').holds('a cat')).toBe(false);
    expect(code('abcd').mask('abcd')).toBe('<agent code>');
  });

  it('masks a text cut short right after the start of a secret, in a message about a reply that held one', () => {
    const secrets = code('Zq8w-k3Vx');
    expect(secrets.maskCut('expected text, got "pay by Zq8w-k…" (cut)')).toBe('expected text, got "pay by <agent code>…" (cut)');
    expect(code('a"bcdef').maskCut('got "x a\\"bc…"')).toBe('got "x <agent code>…"');
  });

  it('masks every string and key of a value, a "__proto__" key staying a key', () => {
    const secrets = code('abcd-1234');
    const value = JSON.parse('{"a":["abcd-1234!"],"abcd-1234":1,"n":2,"z":null,"__proto__":{"x":"abcd-1234"}}') as Record<string, unknown>;
    const masked = secrets.maskDeep(value);
    expect(JSON.stringify(masked)).toBe('{"a":["<agent code>!"],"<agent code>":1,"n":2,"z":null,"__proto__":{"x":"<agent code>"}}');
    expect(Object.getPrototypeOf(masked)).toBe(Object.prototype);
  });
});

describe('Secrets.maskBytes: the bytes of a body, whatever charset it then declares', () => {
  const secret = 'café-Zq8w€';
  const secrets = code(secret);
  const encodings: [string, Buffer][] = [
    ['UTF-8', Buffer.from(secret, 'utf8')],
    ['windows-1252', toWindows1252(secret)!],
    ['UTF-16LE', Buffer.from(secret, 'utf16le')],
    ['UTF-16BE', Buffer.from(secret, 'utf16le').swap16()],
  ];
  for (const [name, bytes] of encodings) {
    it(`masks the secret in ${name}, keeping the encoding (the mask in the same one)`, () => {
      const body = Buffer.concat([Buffer.from(name.startsWith('UTF-16') ? '' : 'x '), bytes, Buffer.from(name.startsWith('UTF-16') ? '' : ' y')]);
      expect(secrets.holdsBytes(body)).toBe(true);
      const masked = secrets.maskBytes(body);
      const decoded = name === 'UTF-16LE' ? masked.toString('utf16le') : name === 'UTF-16BE' ? Buffer.from(masked).swap16().toString('utf16le') : windows1252(masked);
      expect(decoded).toContain('<agent code>');
      for (const [, form] of encodings) expect(masked.includes(form)).toBe(false);
    });
  }
  it('leaves bytes without it as they are (the same buffer)', () => {
    const body = Buffer.from('{"answers":[]}');
    expect(secrets.holdsBytes(body)).toBe(false);
    expect(secrets.maskBytes(body)).toBe(body);
  });
});

describe('a long secret, a long text: linear, no regular expression built from the secret', () => {
  const long = 'Zx'.repeat(2_500); // 5,000 characters: the expression built from it overflowed the stack

  it('masks a code of 5,000 characters in every form', () => {
    const secrets = code(long);
    for (const form of [long, unicodeEscapes(long), encodeURIComponent(long), json(json(long))]) expect(secrets.mask(`a ${form} b`)).toBe('a <agent code> b');
  });

  it('searches a 1 MB text that nearly holds it everywhere in well under a second', () => {
    const secrets = code(long);
    const texts = ['Zx'.repeat(500_000), `${'Zx'.repeat(2_499)}Z&amp;`.repeat(100), `${'a'.repeat(1_000_000)}`, `${encodeURIComponent(long.slice(0, 4_000))}%25`.repeat(50)];
    for (const text of texts) {
      const started = performance.now();
      secrets.mask(text);
      expect(performance.now() - started, text.slice(0, 20)).toBeLessThan(1_500);
    }
    const periodic = code(`${'a'.repeat(4_999)}b`);
    const started = performance.now();
    expect(periodic.mask(`${'a'.repeat(1_000_000)}${'a'.repeat(4_999)}b`)).toBe(`${'a'.repeat(1_000_000)}<agent code>`);
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});

describe('views: the fast search and the one that maps back see the same text', () => {
  const random = mulberry32(7);
  const ALPHABET = ['\\', '"', 'u', '0', '0', 'e', '9', '&', 'a', 'm', 'p', ';', '#', 'x', '%', 'C', '3', 'A', '+', ' ', ' ', '\t', '\u00ad', '\u200b', '\u200e', '\u2066', '\ufeff', 'é', 'n', '/', 'q', '{', '}', 'E', '2', '8'];
  const sample = (): string => Array.from({ length: Math.floor(random() * 40) }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]!).join('');

  it('decode and fold give the same text with and without the map, and the map covers the source in order', () => {
    for (let n = 0; n < 2_000; n++) {
      const text = sample();
      for (const derived of [...FAMILIES.map((f) => [decode(text, f, false), decode(text, f, true)] as const), [fold(text, false), fold(text, true)] as const]) {
        const [fast, mapped] = derived;
        expect(fast?.text, JSON.stringify(text)).toBe(mapped?.text);
        if (mapped === undefined) continue;
        const from = mapped.from!;
        expect(from).toHaveLength(mapped.text.length + 1);
        expect(from.at(-1)).toBe(text.length);
        for (let i = 1; i < from.length; i++) expect(from[i]!).toBeGreaterThanOrEqual(from[i - 1]!);
      }
    }
  });
});

describe('the secrets a run is given', () => {
  it('takes from --base-url its password, the Authorization value and every query value (decoded and as typed)', () => {
    const found = urlSecrets('https://alice:p%40ss-w0rd@h.example/x?token=t%2Bk-123&lang=en&flag&empty=&q=a+b+c', '--base-url');
    expect(found).toEqual<(Secret & { name: string })[]>([
      { kind: 'password', value: 'p@ss-w0rd', typed: ['p%40ss-w0rd'], name: 'the password in --base-url' },
      { kind: 'credentials', value: Buffer.from('alice:p@ss-w0rd').toString('base64'), name: 'the Authorization header made from --base-url' },
      { kind: 'query value', value: 't+k-123', typed: ['t%2Bk-123'], name: 'a query value in --base-url' },
      { kind: 'query value', value: 'en', typed: ['en'], name: 'a query value in --base-url' },
      { kind: 'query value', value: 'flag', typed: ['flag'], name: 'a query value in --base-url' },
      { kind: 'query value', value: 'a b c', typed: ['a+b+c'], name: 'a query value in --base-url' },
    ]);
  });

  it('takes a user name without a password as the secret (a token written as https://TOKEN@host)', () => {
    expect(urlSecrets('https://ghp_abc123@h.example/', '--base-url').map((s) => [s.kind, s.value])).toEqual([
      ['user name', 'ghp_abc123'],
      ['credentials', Buffer.from('ghp_abc123:').toString('base64')],
    ]);
  });

  it("takes a proxy's credentials from the environment, and the agent code first", () => {
    const all = suppliedSecrets({ agentCode: 'code-7Qz3', baseUrl: 'http://127.0.0.1:1/', env: { HTTPS_PROXY: 'http://u:proxy-pw@proxy:3128' } });
    expect(all.map((s) => [s.kind, s.name])).toEqual([
      ['agent code', 'the agent code'],
      ['password', 'the password in HTTPS_PROXY'],
      ['credentials', 'the Authorization header made from HTTPS_PROXY'],
    ]);
  });

  it('warns once per secret too short to be masked, naming it and never quoting it (query values together)', () => {
    const all = suppliedSecrets({ agentCode: 'ab', baseUrl: 'https://u:pw@h.example/?a=1&b=22&token=long-enough', env: {} });
    expect(tooShortWarnings(all)).toEqual([
      'the agent code has fewer than 4 characters: too short to be masked, it is written as is wherever the service echoes it back (a secret this short is guessed in a few thousand tries)',
      'the password in --base-url has fewer than 4 characters: too short to be masked, it is written as is wherever the service echoes it back (a secret this short is guessed in a few thousand tries)',
      '2 query values in --base-url have fewer than 4 characters: too short to be masked, they are written as is wherever the service echoes them back (a secret this short is guessed in a few thousand tries)',
    ]);
  });
});
