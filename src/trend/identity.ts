import { createHash } from 'node:crypto';
import type { ReportHead } from '../model/source.js';
import type { RunChange } from './schema.js';

/**
 * What of `report.run` says *when* or *how fast* a run went rather than *what answered*: left out of the service
 * identity. Everything else is in it, so a field a later version records about the service (the embedded
 * engine's knowledge base and options, say) marks a change without a line here.
 */
const NOT_IDENTITY = new Set(['startedAt', 'finishedAt', 'durationMs', 'status', 'stopReason', 'dataset', 'shard', 'mergedFrom', 'resumed', 'repeat']);
/** Options that change how fast questions are asked, or whether one ends in error, but never an answer. */
const NOT_IDENTITY_OPTIONS = new Set(['concurrency', 'rps', 'maxConsecutiveErrors', 'timeoutMs', 'retries', 'insecure']);
/** Of a rescored report, only what changes how its answers are judged is identity (the dataset is apart). */
const RESCORE_IDENTITY = new Set(['floor', 'aliases']);

type Flat = Map<string, string>;

function flatten(value: unknown, path: string, out: Flat): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, path ? `${path}.${k}` : k, out);
  } else if (value !== undefined && value !== null) out.set(path, JSON.stringify(value)); // null and absent: both none
}

/** The service identity of a run as `path → JSON value`: what answered its questions and how they were judged. */
export function serviceIdentity(head: Pick<ReportHead, 'run' | 'tool'>): Flat {
  const out: Flat = new Map();
  const run = head.run as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(run)) {
    if (NOT_IDENTITY.has(key)) continue;
    // the embedded engine listens on an ephemeral loopback port: its URL says nothing of what answered
    if (key === 'baseUrl' && run['embeddedEngine'] === true) continue;
    if (key === 'options' && value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) if (!NOT_IDENTITY_OPTIONS.has(k)) flatten(v, `options.${k}`, out);
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
  const keys = [...new Set([...before.identity.keys(), ...after.identity.keys()])].sort();
  for (const key of keys) {
    const a = before.identity.get(key);
    const b = after.identity.get(key);
    if (a !== b) out.push({ kind: 'service', what: `${key} ${a ?? '(none)'} → ${b ?? '(none)'}` });
  }
  return out;
}
