import { describe, expect, it } from 'vitest';
import { Secrets } from '../../src/client/secrets/secrets.js';
import { redactUrlsIn } from '../../src/client/url.js';

const codeOf = (code: string): Secrets => new Secrets([{ kind: 'agent code', value: code }]);
const maskSecret = (text: string, code: string): string => codeOf(code).mask(text);
const holdsSecret = (text: string, code: string): boolean => codeOf(code).holds(text);

describe('redaction', () => {
  it('strips credentials and query strings from every URL inside a message', () => {
    expect(redactUrlsIn('connect failed for https://u:p@host.example:8443/x/api/v1/answer?key=k#f via http://proxy:pw@proxy.local:3128/')).toBe(
      'connect failed for https://host.example:8443/x/api/v1/answer via http://proxy.local:3128',
    );
  });

  it('masks the agent code, but leaves text alone when the code is too short to search for', () => {
    expect(maskSecret('echo abcd-1234 and abcd-1234', 'abcd-1234')).toBe('echo <agent code> and <agent code>');
    expect(maskSecret('a cat', 'a')).toBe('a cat');
    expect(maskSecret('abc abc', 'abc')).toBe('abc abc'); // under 4 characters: no secret to keep
  });

  it('masks every form a service, proxy or page writes the code back in', () => {
    const code = 'Zq"8\\k&<W/m  é+x';
    const forms: [string, string][] = [
      ['raw', code],
      ['JSON-escaped', JSON.stringify(code).slice(1, -1)],
      ['JSON-escaped twice', JSON.stringify(JSON.stringify(code)).slice(3, -3)],
      ['JSON \\u escapes', [...code].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
      ['JSON \\u escapes, upper case, and \\/', code.replace('"', '\\u0022').replace('<', '\\u003C').replace('/', '\\/').replace('\\k', '\\\\k')],
      ['whitespace-collapsed', code.replace(/ +/g, ' ')],
      ['whitespace changed', code.replace(/ +/g, '\n\t ')],
      ['XML/HTML-escaped', code.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')],
      ['numeric character references', [...code].map((c) => `&#${c.charCodeAt(0)};`).join('')],
      ['hex character references', code.replace('"', '&#x22;').replace('<', '&#X3c;').replace(' ', '&#x0020;')],
      ['CSV-quoted', code.replace(/"/g, '""')],
      ['URL-encoded', encodeURIComponent(code)],
      ['form-encoded', encodeURIComponent(code).replace(/%20/g, '+')],
    ];
    for (const [what, form] of forms) {
      const text = `before ${form} after`;
      expect(holdsSecret(text, code), what).toBe(true);
      expect(maskSecret(text, code), what).toBe('before <agent code> after');
    }
    expect(holdsSecret('Zq"8\\k&<W/m é+', code)).toBe(false);
    // masking a JSON body keeps it JSON, the code gone from every string and key
    const body = JSON.stringify({ answers: [{ answer: `x ${code} y`, [code]: [code] }] });
    expect(JSON.parse(maskSecret(body, code))).toEqual({ answers: [{ answer: 'x <agent code> y', '<agent code>': ['<agent code>'] }] });
    expect(codeOf(code).maskDeep({ a: [`${code}!`], [code]: 1, n: 2, z: null })).toEqual({ a: ['<agent code>!'], '<agent code>': 1, n: 2, z: null });
  });
});
