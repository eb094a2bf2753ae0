/**
 * The quarantine file: the questions (or conversations) known to be unstable, which a regression gate does not fail
 * on when they break ("broke, but quarantined"). One id a line; `#` starts a comment when it begins the line or
 * follows a space or tab (`q041  # flaky: flipped 3 times`), so an id may hold a `#` of its own (`smart-meter-1#3`,
 * a conversation's turn); blank lines are skipped. `trend` and `run --repeat` write one; `--quarantine FILE` reads it.
 */

/** The name `trend` and `run --repeat` write it under. */
export const QUARANTINE_FILE = 'quarantine.txt';

export interface Quarantine {
  /** The file, as given: messages name it. */
  file: string;
  /** Each id with the line it is on (the first, when listed twice). */
  ids: ReadonlyMap<string, number>;
}

/** Control characters, invisible ones and line separators: no id holds one (src/dataset/row.ts refuses them). */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** Where a comment begins: a `#` that starts the line or follows a space or tab. */
const COMMENT = /(^|[ \t])#/;

/** Parses a quarantine file: its ids, and a problem per line that cannot be one (`line: why`). Pure. */
export function parseQuarantine(text: string, file: string): { quarantine: Quarantine; problems: { line: number; message: string }[] } {
  const ids = new Map<string, number>();
  const problems: { line: number; message: string }[] = [];
  text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/).forEach((raw, i) => {
    const line = i + 1;
    const comment = COMMENT.exec(raw);
    const id = (comment ? raw.slice(0, comment.index) : raw).trim();
    if (id === '') return;
    const at = id.search(INVISIBLE);
    if (at >= 0) {
      const code = `U+${id.codePointAt(at)!.toString(16).toUpperCase().padStart(4, '0')}`;
      problems.push({ line, message: `the id holds an invisible or control character (${code}) at character ${at + 1} (expected one question id a line, "# why" after it if you like)` });
      return;
    }
    if (!ids.has(id)) ids.set(id, line);
  });
  return { quarantine: { file, ids }, problems };
}

/** Whether an id can be written as a line of the file: one that starts with `#` or holds ` #` would read back cut. */
export const quarantinable = (id: string): boolean => !COMMENT.test(id) && id === id.trim() && !INVISIBLE.test(id);

/**
 * The file's text, a line at a time: a header (each line a comment), then each id with why it is there. An id the
 * format cannot hold is written as a comment saying so, never silently left out. Pure.
 */
export function* quarantineText(header: readonly string[], entries: Iterable<{ id: string; why: string }>): Generator<string> {
  const oneLine = (text: string): string => text.replace(/[\r\n\u2028\u2029]+/g, ' ');
  for (const h of header) yield `# ${oneLine(h)}\n`;
  let n = 0;
  for (const { id, why } of entries) {
    n++;
    yield quarantinable(id) ? `${id}  # ${oneLine(why)}\n` : `# not listed, its id cannot be written in this file (it starts with "#" or holds " #"): ${JSON.stringify(id)} (${oneLine(why)})\n`;
  }
  if (n === 0) yield '# (none)\n';
}
