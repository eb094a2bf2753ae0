import { dirname } from 'node:path';
import { readAliases } from '../dataset/aliases.js';
import { checkQuestions } from '../dataset/read.js';
import { reportedMetadata } from '../dataset/metadata.js';
import { openDataset } from '../dataset/source.js';
import { inShard } from '../dataset/shard.js';
import { ConfigError, InputError } from '../errors.js';
import { questionsOfItem, type Question } from '../model/question.js';
import { SCHEMA_VERSION, type QuestionResult } from '../model/report.js';
import { arraySource, type ReportData, type ResultSource } from '../model/source.js';
import { openReport } from '../report/read.js';
import { readJournalHeader } from '../run/journal-read.js';
import { withVerdicts } from '../score/conversation.js';
import { compileMatcher } from '../score/match.js';
import { scoreResults } from '../score/metrics/index.js';
import { RecordSource } from '../util/records.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import { recountCoverage, type Rejudged } from './coverage.js';
import { questionOf, rejudge } from './rejudge.js';
import { quote } from '../model/quote.js';

export interface RescoreOptions {
  /** A corrected dataset: the run's ids with changed expectations. Questions it lacks are left out; a question the run did not ask is an error. */
  dataset?: string;
  /** An alias file for expected_sequence. @default the one the run used (its journal says), if any */
  aliases?: string;
  /** Drop the answers scoring below this, as if the service had refused them (a what-if of the floor threshold). */
  floor?: number;
  /** @default now */
  now?: Date;
}

/** The alias file the run used, as its journal (beside its report) records it. */
export async function runAliases(reportPath: string): Promise<string | undefined> {
  const header = await readJournalHeader(dirname(reportPath)).catch(() => undefined);
  return header?.request.aliases ?? undefined;
}

/** `source`'s results in the order of `order` (indices into it), still read one at a time from disk when they were. */
function pick(source: ResultSource, order: Int32Array): ResultSource {
  if (source instanceof RecordSource && source.files === undefined) {
    const offsets = Float64Array.from(order, (i) => source.offsets[i]!);
    const lengths = Uint32Array.from(order, (i) => source.lengths[i]!);
    return new RecordSource<QuestionResult>(source.paths, offsets, lengths, order.length);
  }
  const all = [...source];
  return arraySource(Array.from(order, (i) => all[i]!));
}

const listed = (ids: readonly string[]): string => `${ids.slice(0, 10).map((id) => quote(id)).join(', ')}${ids.length > 10 ? `, ... (${ids.length - 10} more)` : ''}`;

/** The corrected dataset's questions that the run answered, in the dataset's order, and where each sits among the run's results. */
async function matchDataset(path: string, head: ReportData['head'], results: ResultSource) {
  const shard = head.run.shard;
  const questions: Question[] = [];
  const source = await openDataset(path);
  const checked = await checkQuestions(source, (item) => {
    if (!shard || inShard(item.id, shard)) questions.push(...questionsOfItem(item));
  }).finally(() => source.close());
  if (checked.problems.length > 0) throw new InputError(checked.problems);
  const at = new Map<string, number>();
  let k = 0;
  for (const r of results) at.set(r.id, k++);
  const unknown = questions.filter((q) => !at.has(q.id)).map((q) => q.id);
  if (unknown.length > 0 && head.run.status === 'completed') {
    throw new ConfigError(`${path}: ${unknown.length} question(s) the run did not ask: ${listed(unknown)} (rescore judges the answers a run received; ask new questions with answer-eval run)`);
  }
  const kept = questions.filter((q) => at.has(q.id));
  const metadata = reportedMetadata(checked.metadata);
  return { sha256: checked.sha256, count: checked.count, ...(metadata ? { metadata } : {}), questions: kept, order: Int32Array.from(kept, (q) => at.get(q.id)!) };
}

/**
 * Judges the answers a saved run received again, without sending anything: against a corrected dataset, an alias
 * file, or a floor threshold. The report keeps the run's head (service, times, options) and is marked `rescored`
 * with what changed; summary and metrics are computed again. Results are read from the report.json one at a time at
 * every pass (a corrected dataset is held in memory, one Question per question).
 */
export async function rescoreReport(reportPath: string, o: RescoreOptions = {}): Promise<ReportData> {
  const { head, results } = await openReport(reportPath);
  const earlier = head.run.rescored;
  const aliasFile = o.aliases ?? earlier?.aliases ?? (await runAliases(reportPath));
  const aliases = aliasFile === undefined ? undefined : await readAliases(aliasFile);
  // answers dropped by an earlier rescore are gone from the report: its floor still holds
  const floor = o.floor === undefined ? earlier?.floor ?? undefined : Math.max(o.floor, earlier?.floor ?? -Infinity);
  const language = head.run.options.language;

  let source: ResultSource;
  // the answers as they came, with what their questions expect now: what coverage is counted again from
  let rejudged: () => Iterable<Rejudged>;
  let dataset = head.run.dataset;
  let leftOut = 0;
  if (o.dataset === undefined) {
    rejudged = function* () {
      for (const r of results) yield { result: r, expected: r.expected };
    };
    source = { count: results.count, *[Symbol.iterator]() {
      yield* withVerdicts((function* () {
        for (const r of results) {
          const q = questionOf(r);
          yield rejudge(r, q, language, compileMatcher(q.expected, aliases), floor);
        }
      })());
    } };
  } else {
    const matched = await matchDataset(o.dataset, head, results);
    const picked = pick(results, matched.order);
    dataset = { path: o.dataset, sha256: matched.sha256, questions: matched.count, ...(matched.metadata ? { metadata: matched.metadata } : {}) };
    leftOut = results.count - matched.questions.length;
    rejudged = function* () {
      let k = 0;
      for (const r of picked) {
        const q = matched.questions[k++]!;
        yield { result: r, expected: { expect: q.expect, ...q.expected } };
      }
    };
    source = { count: picked.count, *[Symbol.iterator]() {
      let k = 0;
      yield* withVerdicts((function* () {
        for (const r of picked) {
          const q = matched.questions[k++]!;
          yield rejudge(r, q, language, compileMatcher(q.expected, aliases), floor);
        }
      })());
    } };
  }
  const { metrics: _, summary: __, coverage: was, ...kept } = head;
  return {
    head: {
      ...kept,
      schemaVersion: SCHEMA_VERSION,
      tool: { name: TOOL_NAME, version: TOOL_VERSION },
      run: {
        ...head.run,
        dataset,
        rescored: {
          at: (o.now ?? new Date()).toISOString(),
          from: reportPath,
          dataset: { from: head.run.dataset.sha256, to: dataset.sha256 },
          aliases: aliasFile ?? null,
          floor: floor ?? null,
          leftOut,
        },
      },
      ...scoreResults(source),
      ...(was ? { coverage: recountCoverage(was, rejudged(), { aliases, floor }) } : {}),
    },
    results: source,
  };
}
