import { ConfigError } from '../errors.js';
import { schemaMajor } from '../model/report.js';
import { identityOptions } from '../model/run-identity.js';
import type { ReportData, ReportHead, ResultSource } from '../model/source.js';
import { scoreResults } from '../score/metrics/index.js';
import { flatDifferences, flatten, type Flat } from '../util/flatten.js';
import { truncate } from '../util/text.js';
import { coverageIdentity, mergeCoverage } from './coverage.js';

export interface ShardHead {
  /** The shard's report.json, for messages. */
  path: string;
  head: ReportHead;
}

/**
 * What must be equal across shards for their union to be one run, as `path → JSON value` (paths as in
 * `report.run`). The target is the service's URL, or for the embedded engine its knowledge base's sha256 and its
 * options (each shard ran it on another ephemeral port). Options that change no answer (`isIdentityOption`:
 * concurrency, rps, timeouts, retries...) may differ, as between the runs of a trend.
 */
function identity(h: ReportHead): Flat {
  const e = h.run.engine;
  const out: Flat = new Map();
  flatten(
    {
      schemaVersion: schemaMajor(h.schemaVersion),
      tool: { version: h.tool.version },
      dataset: { sha256: h.run.dataset.sha256 },
      agent: h.run.agent,
      // beside a remote service, the knowledge base given with --kb (every shard's or none): the coverage of their union needs one
      ...(e ? { engine: { kb: { sha256: e.kb.sha256 }, floorThreshold: e.floorThreshold, suggestionThreshold: e.suggestionThreshold } } : { baseUrl: h.run.baseUrl, coverage: coverageIdentity(h.coverage) }),
      options: identityOptions(h.run.options),
      shard: { count: h.run.shard?.count ?? 1 },
    },
    '',
    out,
  );
  return out;
}

const shown = (value: string | undefined): string => (value === undefined ? '(none)' : truncate(value, 80));

/** `options.language differs ("it" vs "en"); shard.count differs (2 vs 4)`: every field of `got` that is not as in `want`, or ''. */
export function identityDifferences(got: ReportHead, want: ReportHead): string {
  return flatDifferences(identity(got), identity(want))
    .map((d) => `${d.path} differs (${shown(d.a)} vs ${shown(d.b)})`)
    .join('; ');
}

/** The shard numbers (1-based) of the set that none of the shards is. */
export function missingShards(shards: readonly ShardHead[]): number[] {
  const count = shards[0]?.head.run.shard?.count ?? 1;
  const present = new Set(shards.map((s) => s.head.run.shard?.index ?? 1));
  return Array.from({ length: count }, (_, i) => i + 1).filter((i) => !present.has(i));
}

/** `shard 3/4 is missing` or `shards 3, 4 of 4 are missing`. */
const missingPhrase = (missing: readonly number[], count: number): string =>
  missing.length === 1 ? `shard ${missing[0]}/${count} is missing` : `shards ${missing.join(', ')} of ${count} are missing`;

/**
 * Refuses shards of different datasets, agents, targets, options that can change an answer or tool versions, and a
 * shard given twice, naming each field that differs with both values; and an incomplete set (naming the missing shards) unless `allowPartial`.
 */
export function checkShards(shards: readonly ShardHead[], o: { allowPartial?: boolean } = {}): void {
  const [first, ...rest] = shards;
  if (!first) throw new ConfigError('merge needs at least one report');
  for (const other of rest) {
    const differences = identityDifferences(other.head, first.head);
    if (differences) throw new ConfigError(`${other.path} does not belong with ${first.path}: ${differences}`);
  }
  const count = first.head.run.shard?.count ?? 1;
  const seen = new Map<number, string>();
  for (const { path, head } of shards) {
    const index = head.run.shard?.index ?? 1;
    const earlier = seen.get(index);
    if (earlier) throw new ConfigError(`${path} and ${earlier} are both shard ${index}/${count}`);
    seen.set(index, path);
  }
  const missing = missingShards(shards);
  if (missing.length > 0 && !o.allowPartial) {
    throw new ConfigError(
      `cannot merge: ${missingPhrase(missing, count)} (given: ${[...seen.keys()].sort((a, b) => a - b).join(', ')} of ${count}); ` +
        'give every shard\'s directory, or --allow-partial to merge these into a report marked partial',
    );
  }
  // a shard that stopped before asking all its questions lacks them as much as a missing shard does
  const stopped = shards.find((s) => s.head.run.status === 'partial');
  if (stopped && !o.allowPartial) {
    const { path, head } = stopped;
    throw new ConfigError(
      `cannot merge: ${path} (shard ${head.run.shard?.index ?? 1}/${count}) is partial: it stopped before asking every question` +
        `${head.run.stopReason ? ` (${truncate(head.run.stopReason, 200)})` : ''}; finish it with answer-eval run --resume on its directory, or --allow-partial to merge it into a report marked partial`,
    );
  }
}

/**
 * The report of one run made of the shards' (checked with `checkShards`): `results` are all of theirs in
 * dataset order; summary and metrics are computed again from them, in streaming passes, and the coverage added up. `run` is the first shard's,
 * its options too where the shards' differ (only those that change no answer may: concurrency, rps...).
 */
export function mergeShards(shards: readonly ShardHead[], results: ResultSource): ReportData {
  const first = shards[0]!.head;
  const count = first.run.shard?.count ?? 1;
  const missing = missingShards(shards);
  const runs = shards.map((s) => s.head.run);
  const startedAt = runs.map((r) => r.startedAt).sort()[0]!;
  const finishedAt = runs.map((r) => r.finishedAt).sort().at(-1)!;
  const complete = missing.length === 0 && runs.every((r) => r.status === 'completed');
  const stopReasons = [
    ...(missing.length > 0 ? [missingPhrase(missing, count)] : []),
    ...runs.flatMap((r) => (r.stopReason ? [r.stopReason] : [])),
  ];
  const { shard: _shard, stopReason: _reason, resumed: _resumed, ...run } = first.run;
  return {
    head: {
      schemaVersion: first.schemaVersion,
      tool: first.tool,
      run: {
        ...run,
        startedAt,
        finishedAt,
        durationMs: Date.parse(finishedAt) - Date.parse(startedAt),
        status: complete ? 'completed' : 'partial',
        ...(stopReasons.length > 0 ? { stopReason: stopReasons.join('; ') } : {}),
        mergedFrom: shards.map((s) => s.path),
      },
      ...scoreResults(results),
      ...(first.coverage ? { coverage: mergeCoverage(shards.map((s) => s.head.coverage))! } : {}),
    },
    results,
  };
}
