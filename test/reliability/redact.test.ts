import { describe, expect, it } from 'vitest';
import { maskSecret } from '../../src/client/secret.js';
import { redactUrlsIn } from '../../src/client/url.js';

describe('redaction', () => {
  it('strips credentials and query strings from every URL inside a message', () => {
    expect(redactUrlsIn('connect failed for https://u:p@host.example:8443/x/api/v1/answer?key=k#f via http://proxy:pw@proxy.local:3128/')).toBe(
      'connect failed for https://host.example:8443/x/api/v1/answer via http://proxy.local:3128',
    );
  });

  it('masks the agent code, but leaves text alone when the code is too short to search for', () => {
    expect(maskSecret('echo abcd-1234 and abcd-1234', 'abcd-1234')).toBe('echo <agent code> and <agent code>');
    expect(maskSecret('a cat', 'a')).toBe('a cat');
  });
});
