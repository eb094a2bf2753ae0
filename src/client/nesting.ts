/**
 * The deepest a reply may nest arrays and objects, the body itself being level 1. The spec's answer items sit
 * at level 3 with flat values; the slack is for unknown fields a service adds (kept in the report). Without a
 * bound, one answer holding `[[[[...]]]]` 5,000 deep, ten kilobytes, overflows the stack of every recursive
 * step after the parse (JSON.stringify for the journal, the report writers, the re-read on --resume) and
 * stops the run at that question again and again.
 */
export const MAX_DEPTH = 32;

/** Path segments are cut to this many characters in messages: a key may be as long as the body. */
const KEY_CHARS = 40;

/** `answers[0].vendor` for a path; 'body' for the empty one. */
export function fieldPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'body';
  return path
    .map((p) => {
      if (typeof p === 'number') return `[${p}]`;
      const key = String(p);
      return `.${key.length > KEY_CHARS ? `${key.slice(0, KEY_CHARS)}…` : key}`;
    })
    .join('')
    .replace(/^\./, '');
}

/** Whether a parsed JSON value nests deeper than `max` (iterative: the check itself cannot overflow). */
function tooDeep(root: unknown, max: number): boolean {
  const values: unknown[] = [root];
  const depths: number[] = [1];
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > max) return true;
    if (Array.isArray(value)) {
      for (const v of value) {
        if (typeof v !== 'object' || v === null) continue;
        values.push(v);
        depths.push(depth + 1);
      }
    } else {
      for (const k in value) {
        const v = (value as Record<string, unknown>)[k];
        if (typeof v !== 'object' || v === null) continue;
        values.push(v);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/**
 * Where a parsed reply first nests deeper than MAX_DEPTH, named down to the field of the answer item
 * (`answers[2].vendor`); undefined when it does not. Cheap for the usual flat reply.
 */
export function tooDeepAt(json: unknown, max = MAX_DEPTH): string | undefined {
  if (!tooDeep(json, max)) return undefined;
  // a second pass, on this rare path only, to name the place: the first few levels of the path
  const stack: { value: unknown; depth: number; path: PropertyKey[] }[] = [{ value: json, depth: 1, path: [] }];
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > max) return fieldPath(path);
    const entries: [PropertyKey, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
    for (const [key, v] of entries.reverse()) stack.push({ value: v, depth: depth + 1, path: path.length < 4 ? [...path, key] : path });
  }
  return 'body';
}
