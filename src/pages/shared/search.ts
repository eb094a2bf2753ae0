/** What a search looks for: the text typed, trimmed, in lower case ('' matches everything). */
export const needleOf = (typed: string): string => typed.trim().toLowerCase();

/**
 * A text search over numbered items: each item's text (`textOf`, lower-cased) is built the first time a search
 * needs it and kept, so a page opens without building any and the second search is a scan.
 */
export function textSearch(textOf: (i: number) => string): (i: number, needle: string) => boolean {
  const cache: (string | undefined)[] = [];
  return (i, needle) => needle === '' || (cache[i] ??= textOf(i).toLowerCase()).includes(needle);
}
