// The masking answer-eval used before src/client/secrets/ (a regular expression built from the agent code), kept only
// as the baseline bench/masking.ts measures the literal search against. Not used by answer-eval.

/**
 * Codes shorter than this are not searched for: replacing every "ab" would garble a report, and a code this
 * short is guessed in a few thousand tries, so it is no secret to keep. checkAgentCode accepts such a code;
 * a service that echoes it back has it echoed into the report.
 */
const MIN_SECRET_LENGTH = 4;

export const SECRET_MASK = '<agent code>';

const escapeRegExp = (s: string): string => s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/** Hex digits matched in either case: 0x2f, width 4 -> 002[fF]. */
const hex = (n: number, width = 0): string =>
  [...n.toString(16).padStart(width, '0')].map((h) => (/[a-f]/.test(h) ? `[${h}${h.toUpperCase()}]` : h)).join('');

const NAMED_ENTITIES: Record<string, string[]> = { '"': ['quot', 'QUOT'], '&': ['amp', 'AMP'], '<': ['lt', 'LT'], '>': ['gt', 'GT'], "'": ['apos'] };

/**
 * The ways one character of the code may be written back:
 * - raw;
 * - JSON string escapes: `\"`, `\\`, `\/`, `\u00e9` (and a JSON string escaped again, `\\\"`, as a message
 *   quoting a JSON body is);
 * - XML/HTML: `&quot;`, `&#34;`, `&#x22;`;
 * - CSV: a quote doubled;
 * - URL encoding: `%22` (UTF-8 bytes), `+` for a space.
 * Whitespace is matched as a run of any whitespace in any of those forms, since excerpts collapse it.
 */
function charPattern(char: string): string {
  const cp = char.codePointAt(0)!;
  const units = char.length === 1 ? [cp] : [char.charCodeAt(0), char.charCodeAt(1)];
  const forms = [
    units.map((u) => `\\\\+u${hex(u, 4)}`).join(''),
    `&#0*${cp};`,
    `&#[xX]0*${hex(cp)};`,
    ...(NAMED_ENTITIES[char] ?? []).map((name) => `&${name};`),
    [...Buffer.from(char, 'utf8')].map((b) => `%${hex(b, 2)}`).join(''),
  ];
  if (char === '"') forms.push('\\\\*"', '""');
  else if (char === '\\') forms.push('\\\\+');
  else if (char === '/') forms.push('\\\\*/');
  else forms.push(escapeRegExp(char));
  return `(?:${forms.join('|')})`;
}

const WHITESPACE = `(?:\\s|\\+|%20|%[cC]2%[aA]0|&nbsp;|&#0*(?:32|160);|&#[xX]0*(?:20|[aA]0);|\\\\+u00(?:20|[aA]0))+`;

let cached: { secret: string; test: RegExp; replace: RegExp } | undefined;

function patterns(secret: string): { test: RegExp; replace: RegExp } {
  if (cached?.secret !== secret) {
    let source = '';
    let inSpace = false;
    for (const char of secret) {
      const space = /\s/.test(char);
      if (space && !inSpace) source += WHITESPACE;
      else if (!space) source += charPattern(char);
      inSpace = space;
    }
    cached = { secret, test: new RegExp(source), replace: new RegExp(source, 'g') };
  }
  return cached;
}

/** Whether `text` holds the agent code in any form a service may echo it back in. */
export const holdsSecret = (text: string, secret: string): boolean => secret.length >= MIN_SECRET_LENGTH && patterns(secret).test.test(text);

/** `text` with the start of the code masked where it was cut: `pay by bi…` for the code `bill`. */
function maskCut(text: string, secret: string): string {
  if (secret.length < MIN_SECRET_LENGTH || !text.includes('…')) return text;
  for (let k = secret.length - 1; k >= 1; k--) {
    const cut = `${secret.slice(0, k)}…`;
    if (text.includes(cut)) return text.split(cut).join(`${SECRET_MASK}…`);
  }
  return text;
}

/** `text` with every occurrence of the agent code, in any of its forms, replaced by SECRET_MASK. */
export const maskSecret = (text: string, secret: string): string =>
  holdsSecret(text, secret) ? text.replace(patterns(secret).replace, SECRET_MASK) : text;

/**
 * A JSON value with the agent code masked in every string and key (a result whose serialized line held it). A text
 * cut short (`…`) right after the start of the code, as a reason quoting an answer may be, has that start masked too.
 */
export function maskSecretDeep<T>(value: T, secret: string): T {
  if (typeof value === 'string') return maskCut(maskSecret(value, secret), secret) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => maskSecretDeep(v, secret)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[maskSecret(k, secret)] = maskSecretDeep(v, secret);
  return out as T;
}
