import { isDeepStrictEqual } from 'node:util';
import { ConfigError } from '../errors.js';
import type { Report } from '../report/schema.js';
import { arraySource } from '../report/source.js';
import { computeMetrics } from '../score/metrics/index.js';
import { summarize } from '../score/summary.js';

export interface ShardReport {
  path: string;
  report: Report;
}

const major = (version: string): string => version.split('.')[0] ?? version;

/** What must be equal across shards for their union to be one run. */
function identity(r: Report) {
  return {
    schemaVersion: major(r.schemaVersion),
    tool: r.tool.version,
    dataset: r.run.dataset.sha256,
    agent: r.run.agent,
    baseUrl: r.run.baseUrl,
    options: r.run.options,
    shards: r.run.shard?.count ?? 1,
  };
}

/**
 * Combines the reports of `--shard i/n` runs into the report of one run: results back in dataset order,
 * summary recomputed. Refuses shards of different datasets, agents or options, naming what differs.
 */
export function mergeReports(shards: readonly ShardReport[]): Report {
  const [first, ...rest] = shards;
  if (!first) throw new ConfigError('merge needs at least one report');
  const want = identity(first.report);
  for (const other of rest) {
    const got = identity(other.report);
    for (const key of Object.keys(want) as (keyof typeof want)[]) {
      if (!isDeepStrictEqual(want[key], got[key])) {
        throw new ConfigError(
          `${other.path} does not belong with ${first.path}: ${key} differs (${JSON.stringify(got[key])} vs ${JSON.stringify(want[key])})`,
        );
      }
    }
  }
  const seen = new Map<number, string>();
  for (const { path, report } of shards) {
    const index = report.run.shard?.index ?? 1;
    const earlier = seen.get(index);
    if (earlier) throw new ConfigError(`${path} and ${earlier} are both shard ${index}/${want.shards}`);
    seen.set(index, path);
  }
  const missing = Array.from({ length: want.shards }, (_, i) => i + 1).filter((i) => !seen.has(i));

  const results = shards.flatMap((s) => s.report.results).sort((a, b) => a.line - b.line);
  const ids = new Set<string>();
  for (const r of results) {
    if (ids.has(r.id)) throw new ConfigError(`question "${r.id}" appears in more than one shard report`);
    ids.add(r.id);
  }
  const runs = shards.map((s) => s.report.run);
  const startedAt = runs.map((r) => r.startedAt).sort()[0]!;
  const finishedAt = runs.map((r) => r.finishedAt).sort().at(-1)!;
  const complete = missing.length === 0 && runs.every((r) => r.status === 'completed');
  const stopReasons = [
    ...(missing.length > 0 ? [`shards ${missing.join(', ')} of ${want.shards} are missing`] : []),
    ...runs.flatMap((r) => (r.stopReason ? [r.stopReason] : [])),
  ];
  const { shard: _shard, stopReason: _reason, ...run } = first.report.run;
  return {
    schemaVersion: first.report.schemaVersion,
    tool: first.report.tool,
    run: {
      ...run,
      startedAt,
      finishedAt,
      durationMs: Date.parse(finishedAt) - Date.parse(startedAt),
      status: complete ? 'completed' : 'partial',
      ...(stopReasons.length > 0 ? { stopReason: stopReasons.join('; ') } : {}),
      mergedFrom: shards.map((s) => s.path),
    },
    summary: summarize(results),
    metrics: computeMetrics(arraySource(results)),
    results,
  };
}
