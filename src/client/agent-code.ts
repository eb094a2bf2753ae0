import { ConfigError } from '../errors.js';

const hexCode = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/** Characters that show as nothing: a copy-paste from a web page or a chat brings them along. */
const INVISIBLE: Record<number, string> = {
  0xa0: 'a no-break space',
  0xad: 'a soft hyphen',
  0x200b: 'a zero-width space',
  0x200c: 'a zero-width non-joiner',
  0x200d: 'a zero-width joiner',
  0x2060: 'a word joiner',
  0xfeff: 'a zero-width no-break space (byte order mark)',
};

/** What a character is, when an HTTP header value cannot carry it (or it is surely no part of a code). */
function problemOf(cp: number): { what: string; pasted: boolean } | undefined {
  if (cp >= 0x21 && cp <= 0x7e) return undefined;
  if (cp === 0x20) return undefined; // inside the code; at either end, see checkAgentCode
  if (cp >= 0xa1 && cp <= 0xff && cp !== 0xad) return undefined; // Latin-1 letters and signs: obs-text, allowed
  if (cp === 0x0a || cp === 0x0d) return { what: 'a line break', pasted: false };
  if (cp === 0x09) return { what: 'a tab', pasted: false };
  const invisible = INVISIBLE[cp];
  if (invisible !== undefined) return { what: `${invisible} (${hexCode(cp)})`, pasted: true };
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return { what: `a control character (${hexCode(cp)})`, pasted: false };
  return { what: `a character outside Latin-1 (${hexCode(cp)})`, pasted: false };
}

/**
 * Throws a ConfigError when the agent code cannot be sent as the wikiclone_code header (a line break, a
 * control character, a character outside Latin-1) or holds what is surely a copy-paste leftover (a
 * zero-width or no-break space, spaces at either end). The message says what and where, never the code.
 * Without this check undici rejects the header on every request, and a rejected request may never settle.
 * `from` names where the code came from, e.g. "ANSWER_AGENT_CODE".
 *
 * A code shorter than 4 characters is accepted, but it is not masked where a service echoes it back (see
 * secrets/secrets.ts): such a code is no secret, and the run says so before it asks.
 */
export function checkAgentCode(code: string, from?: string): void {
  const subject = `the agent code${from === undefined ? '' : ` (from ${from})`}`;
  const chars = [...code];
  const problems: { what: string; pasted: boolean; at: number }[] = [];
  chars.forEach((char, i) => {
    const problem = problemOf(char.codePointAt(0)!);
    if (problem) problems.push({ ...problem, at: i });
  });
  if (problems.length === 0 && code !== code.trim()) {
    problems.push({ what: 'a space', pasted: true, at: /^\s/.test(code) ? 0 : chars.length - 1 });
  }
  const first = problems[0];
  if (first === undefined) return;
  const where = chars.length > 1 && first.at === chars.length - 1 ? 'at the end' : first.at === 0 ? 'at the start' : `at character ${first.at + 1} of ${chars.length}`;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more such character${problems.length > 2 ? 's' : ''})` : '';
  const hint = first.pasted ? ', probably from a copy-paste' : '';
  throw new ConfigError(
    `${subject} holds ${first.what} ${where}${more}${hint}: it is sent as the wikiclone_code header, which cannot carry that. ` +
      'Fix the code where it is set (it is not shown here, being secret).',
  );
}
