import { isDeepStrictEqual } from 'node:util';
import { ConfigError } from '../errors.js';
import { schemaMajor } from '../model/report.js';
import type { ReportData, ReportHead, ResultSource } from '../model/source.js';
import { scoreResults } from '../score/metrics/index.js';

export interface ShardHead {
  /** The shard's report.json, for messages. */
  path: string;
  head: ReportHead;
}

/**
 * What must be equal across shards for their union to be one run. The target is the service's URL, or for the
 * embedded engine its knowledge base's sha256 and its options (each shard ran it on another ephemeral port).
 */
function identity(h: ReportHead) {
  const e = h.run.engine;
  return {
    schemaVersion: schemaMajor(h.schemaVersion),
    tool: h.tool.version,
    dataset: h.run.dataset.sha256,
    agent: h.run.agent,
    ...(e ? { engine: { kb: e.kb.sha256, floor: e.floorThreshold, suggestionThreshold: e.suggestionThreshold } } : { baseUrl: h.run.baseUrl }),
    options: h.run.options,
    shards: h.run.shard?.count ?? 1,
  };
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
 * Refuses shards of different datasets, agents, targets, options or tool versions, and a shard given twice, naming
 * what differs; and an incomplete set (naming the missing shards) unless `allowPartial`.
 */
export function checkShards(shards: readonly ShardHead[], o: { allowPartial?: boolean } = {}): void {
  const [first, ...rest] = shards;
  if (!first) throw new ConfigError('merge needs at least one report');
  const want = identity(first.head);
  for (const other of rest) {
    const got = identity(other.head);
    for (const key of Object.keys(want) as (keyof typeof want)[]) {
      if (!isDeepStrictEqual(want[key], got[key])) {
        throw new ConfigError(
          `${other.path} does not belong with ${first.path}: ${key} differs (${JSON.stringify(got[key])} vs ${JSON.stringify(want[key])})`,
        );
      }
    }
  }
  const seen = new Map<number, string>();
  for (const { path, head } of shards) {
    const index = head.run.shard?.index ?? 1;
    const earlier = seen.get(index);
    if (earlier) throw new ConfigError(`${path} and ${earlier} are both shard ${index}/${want.shards}`);
    seen.set(index, path);
  }
  const missing = missingShards(shards);
  if (missing.length > 0 && !o.allowPartial) {
    throw new ConfigError(
      `cannot merge: ${missingPhrase(missing, want.shards)} (given: ${[...seen.keys()].sort((a, b) => a - b).join(', ')} of ${want.shards}); ` +
        'give every shard\'s directory, or --allow-partial to merge these into a report marked partial',
    );
  }
}

/**
 * The report of one run made of the shards' (checked with `checkShards`): `results` are all of theirs in
 * dataset order; summary and metrics are computed again from them, in streaming passes.
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
    },
    results,
  };
}
