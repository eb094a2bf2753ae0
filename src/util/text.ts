/**
 * Text on one line (runs of whitespace as one space), shortened to `max` characters with an ellipsis. Characters
 * are code points: an emoji is never cut in half (a lone surrogate would come out as U+FFFD in every report).
 */
export function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  let cut = 0;
  for (let i = 0, n = 0; i < flat.length; n++) {
    if (n === max - 1) cut = i;
    if (n === max) return `${flat.slice(0, cut)}…`;
    i += flat.codePointAt(i)! > 0xffff ? 2 : 1;
  }
  return flat;
}

/** A count with its noun: `1 question`, `3 questions` (the plural by adding "s"). */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
