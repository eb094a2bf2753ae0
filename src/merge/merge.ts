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

/** What must be equal across shards for their union to be one run. */
function identity(h: ReportHead) {
  return {
    schemaVersion: schemaMajor(h.schemaVersion),
    tool: h.tool.version,
    dataset: h.run.dataset.sha256,
    agent: h.run.agent,
    baseUrl: h.run.baseUrl,
    options: h.run.options,
    shards: h.run.shard?.count ?? 1,
  };
}

/** Refuses shards of different datasets, agents, options or tool versions, and a shard given twice, naming what differs. */
export function checkShards(shards: readonly ShardHead[]): void {
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
}

/**
 * The report of one run made of the shards' (checked with `checkShards`): `results` are all of theirs in
 * dataset order; summary and metrics are computed again from them, in streaming passes.
 */
export function mergeShards(shards: readonly ShardHead[], results: ResultSource): ReportData {
  const first = shards[0]!.head;
  const count = first.run.shard?.count ?? 1;
  const present = new Set(shards.map((s) => s.head.run.shard?.index ?? 1));
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !present.has(i));
  const runs = shards.map((s) => s.head.run);
  const startedAt = runs.map((r) => r.startedAt).sort()[0]!;
  const finishedAt = runs.map((r) => r.finishedAt).sort().at(-1)!;
  const complete = missing.length === 0 && runs.every((r) => r.status === 'completed');
  const stopReasons = [
    ...(missing.length > 0 ? [`shards ${missing.join(', ')} of ${count} are missing`] : []),
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
