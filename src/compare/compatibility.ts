import { ConfigError } from '../errors.js';
import { schemaMajor } from '../model/report.js';
import { quote } from '../model/quote.js';

/**
 * What must match for two reports to be comparable. Their datasets need not: questions are matched by id, and
 * those added, removed or edited are listed apart.
 */
export interface Comparable {
  schemaVersion: string;
  run: { agent: string };
}

/** The differences that make two reports incomparable (another schema major, another agent), one sentence each, naming both files. */
export function incompatibilities(base: Comparable, head: Comparable, files: { base: string; head: string }): string[] {
  const out: string[] = [];
  const both = (what: string, b: string, h: string) => `${what} differs: ${b} in ${files.base}, ${h} in ${files.head}`;
  if (schemaMajor(base.schemaVersion) !== schemaMajor(head.schemaVersion)) out.push(both('schemaVersion major', `"${base.schemaVersion}"`, `"${head.schemaVersion}"`));
  if (base.run.agent !== head.run.agent) out.push(both('agent', quote(base.run.agent), quote(head.run.agent)));
  return out;
}

/** Throws a ConfigError (exit 2) listing every difference, unless forced; returns the overridden ones. */
export function checkComparable(base: Comparable, head: Comparable, files: { base: string; head: string }, force: boolean): string[] {
  const problems = incompatibilities(base, head, files);
  if (problems.length > 0 && !force) {
    throw new ConfigError(`cannot compare ${files.base} with ${files.head}:\n${problems.map((p) => `  - ${p}`).join('\n')}\npass --force to compare them anyway`);
  }
  return problems;
}
