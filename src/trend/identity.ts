import { createHash } from 'node:crypto';
import { isIdentityOption } from '../model/run-identity.js';
import type { ReportHead } from '../model/source.js';
import { flatDifferences, flatten, type Flat } from '../util/flatten.js';
import type { RunChange } from './schema.js';

/**
 * What of `report.run` says *when* or *how fast* a run went rather than *what answered*: left out of the service
 * identity. Everything else is in it, so a field a later version records about the service (the embedded
 * engine's knowledge base and options, say) marks a change without a line here.
 */
const NOT_IDENTITY = new Set(['startedAt', 'finishedAt', 'durationMs', 'status', 'stopReason', 'dataset', 'shard', 'mergedFrom', 'resumed', 'repeat']);
/** Of a rescored report, only what changes how its answers are judged is identity (the dataset is apart). */
const RESCORE_IDENTITY = new Set(['floor', 'aliases']);

/** The service identity of a run as `path → JSON value`: what answered its questions and how they were judged. */
export function serviceIdentity(head: Pick<ReportHead, 'run' | 'tool'>): Flat {
  const out: Flat = new Map();
  const run = head.run as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(run)) {
    if (NOT_IDENTITY.has(key)) continue;
    // the embedded engine listens on an ephemeral loopback port: its URL says nothing of what answered
    if (key === 'baseUrl' && run['embeddedEngine'] === true) continue;
    if (key === 'options' && value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) if (isIdentityOption(k)) flatten(v, `options.${k}`, out);
      continue;
    }
    // the embedded engine's knowledge base is what it holds (its sha256), wherever the file lies
    if (key === 'engine' && value && typeof value === 'object') {
      const { kb, ...options } = value as { kb?: { sha256?: unknown } };
      flatten(kb?.sha256, 'engine.kb.sha256', out);
      for (const [k, v] of Object.entries(options)) flatten(v, `engine.${k}`, out);
      continue;
    }
    if (key === 'rescored' && value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) if (RESCORE_IDENTITY.has(k)) flatten(v, `rescored.${k}`, out);
      continue;
    }
    flatten(value, key, out);
  }
  out.set('tool.version', JSON.stringify(head.tool.version));
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A short hash of an identity: equal identities, equal hashes. */
export const identityHash = (identity: Flat): string =>
  createHash('sha256').update(JSON.stringify([...identity])).digest('hex').slice(0, 12);

const short = (sha: string): string => (sha.length > 12 ? `${sha.slice(0, 12)}…` : sha);

/** What changed from one run to the next, each in words naming both values; empty when nothing did. */
export function runChanges(before: { dataset: { sha256: string }; identity: Flat }, after: { dataset: { sha256: string }; identity: Flat }): RunChange[] {
  const out: RunChange[] = [];
  if (before.dataset.sha256 !== after.dataset.sha256) out.push({ kind: 'dataset', what: `dataset sha256 ${short(before.dataset.sha256)} → ${short(after.dataset.sha256)}` });
  for (const { path, a, b } of flatDifferences(before.identity, after.identity)) {
    out.push({ kind: 'service', what: `${path} ${a ?? '(none)'} → ${b ?? '(none)'}` });
  }
  return out;
}
