/** A value as `path → JSON value`, one entry per leaf (`engine.kb.sha256`); null and absent are both no entry. */
export type Flat = Map<string, string>;

/** Adds the leaves of `value` under `path` to `out` (arrays are leaves). */
export function flatten(value: unknown, path: string, out: Flat): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, path ? `${path}.${k}` : k, out);
  } else if (value !== undefined && value !== null) out.set(path, JSON.stringify(value));
}

/** The paths whose values differ between two flat values, sorted, each with both values (undefined: none). */
export function flatDifferences(a: Flat, b: Flat): { path: string; a: string | undefined; b: string | undefined }[] {
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
  return paths.filter((p) => a.get(p) !== b.get(p)).map((path) => ({ path, a: a.get(path), b: b.get(path) }));
}
