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

/**
 * A value from the input as a message quotes it: text JSON-quoted (its control characters escaped, so it stays on one
 * line), any other value as JSON; cut to `max` characters (see QUOTED_CHARS). Every message that quotes input
 * quotes it through this.
 */
export function quote(value: unknown, max = QUOTED_CHARS): string {
  if (typeof value === 'string') return JSON.stringify(cut(value, max));
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
