/**
 * What makes text from data safe on a terminal and in a CI log. Data (a dataset's header or values, a service's
 * labels or error body, a report read from disk) may hold control characters (ESC [31m, the one-byte CSI 0x9b),
 * characters that reorder or hide text (bidi overrides, zero-width spaces) and line breaks, and a line of a CI log
 * that starts with `::` (GitHub Actions) or holds `##[` (the older form; `##vso[` on Azure Pipelines) is taken as a
 * workflow command: `::add-mask::`, `::error::`, `::stop-commands::` would let a dataset steer the job.
 */

// control characters (C0, DEL, C1) but tab; format characters (bidi controls, zero-width ones, the BOM); line and
// paragraph separators
const UNSAFE = /(?!\t)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const UNSAFE_BUT_LINE_BREAKS = /(?![\t\n\r])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const ANY_UNSAFE = /(?![\t\n])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|::|##/u;

/** A character shown by its escape: `\n`, `\r`, `\x1b`, `\x9b`, `\u202e`, `\u{e0041}`. */
function shown(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  const cp = c.codePointAt(0)!;
  if (cp <= 0xff) return `\\x${cp.toString(16).padStart(2, '0')}`;
  return cp <= 0xffff ? `\\u${cp.toString(16).padStart(4, '0')}` : `\\u{${cp.toString(16)}}`;
}

/** A value from data on one line, each unsafe character (line breaks included) shown as its escape. */
export const oneLine = (text: string): string => text.replace(UNSAFE, shown);

/** A value from data quoted on one line: `"a\nb"`. */
export const quoted = (text: string): string => `"${oneLine(text)}"`;

const JOINER = '\u200d'; // a zero-width joiner: the text reads the same, the marker is gone

/**
 * One line of output made safe: unsafe characters shown as escapes (a line break in it too: the line is one line),
 * a `::` that starts the line (after spaces, as GitHub Actions reads it) and every `##` broken by a zero-width joiner.
 */
export function safeLine(line: string): string {
  const text = line.replace(UNSAFE, shown).replace(/#(?=#)/g, `#${JOINER}`);
  const start = text.length - text.trimStart().length;
  return text.startsWith('::', start) ? `${text.slice(0, start + 1)}${JOINER}${text.slice(start + 1)}` : text;
}

/** Output text of several lines made safe, line by line: its line breaks are kept, each line is made safe. */
export const safeLines = (text: string): string => (ANY_UNSAFE.test(text) ? text.split('\n').map(safeLine).join('\n') : text);

/**
 * GitHub Actions workflow-command data: unsafe characters shown as escapes, but line breaks kept, as GitHub's `%0A`
 * (a message of several lines), `%` escaped, so the message stays one command's message, and `##` broken, so no
 * reader takes the line for an older command.
 */
export const commandData = (text: string): string =>
  text.replace(UNSAFE_BUT_LINE_BREAKS, shown).replace(/#(?=#)/g, `#${JOINER}`).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** GitHub Actions workflow-command property values: as data, and `:` and `,` too. */
export const commandProperty = (text: string): string => commandData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
