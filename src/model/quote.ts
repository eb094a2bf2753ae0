/**
 * The most characters of a value from the input (a cell, a key, an id, a column name) that a message quotes: a longer
 * one is cut, ending in `…`, so a row value of 100,000 characters costs a line of stderr, not 100,000 characters.
 */
export const QUOTED_CHARS = 80;

/** `text` cut to `max` characters (code points: an emoji is never cut in half), ending in `…` when it was cut. */
export function cut(text: string, max = QUOTED_CHARS): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // a high surrogate: its pair would be cut off
  return `${text.slice(0, end)}…`;
}

const SHORT: Record<string, string> = { '"': '\\"', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/**
 * A value from the input as a message quotes it: text in double quotes, its quotes and control characters escaped
 * (so it stays on one line) and its backslashes as written (`re:^(a+)\1$` reads as the user typed it); any other
 * value as JSON; cut to `max` characters (see QUOTED_CHARS). Every message that quotes input quotes it through this.
 */
export function quote(value: unknown, max = QUOTED_CHARS): string {
  if (typeof value === 'string') {
    // eslint-disable-next-line no-control-regex -- control characters are what is escaped
    const escaped = cut(value, max).replace(/["\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    return `"${escaped}"`;
  }
  const text = JSON.stringify(value) ?? String(value);
  return cut(text, max);
}

/**
 * Values from the input, the first `most` of them, each quoted (or, with `show` = cut, each cut but not quoted, as a
 * list of column names is written), and how many more: `"a", "b" and 99,998 more`.
 */
export function quoteList(values: readonly unknown[], most = 10, show: (value: string) => string = quote): string {
  const shown = values.slice(0, most).map((v) => show(typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)))).join(', ');
  return values.length > most ? `${shown} and ${(values.length - most).toLocaleString('en-US')} more` : shown;
}
