import { plural } from '../util/text.js';
import type { LogColumns } from './columns.js';
import type { StratumDraw } from './draw.js';
import type { Skip } from './read.js';
import { PII_KINDS, type PiiCounts, type PiiKind } from './scrub.js';

/** What `sample` did: printed after the set is written, and kept beside it (`set.csv.sample.json`). */
export interface SampleSummary {
  log: string;
  /** sha256 of the log's bytes: the same log and seed give the same set. */
  sha256: string;
  format: 'csv' | 'jsonl';
  encoding: string;
  columns: LogColumns;
  /** Rows read (a CSV's records after the header, a JSONL log's non-blank lines), and those that gave a question. */
  rows: number;
  questions: number;
  /** Rows that gave none, by why, and the first few of them. */
  skipped: Record<'empty' | 'invalid' | 'long', number> & { first: Skip[] };
  /** Rows whose language is no ISO 639-1 code, taken as not known. */
  unreadLanguages: { count: number; first?: { line: number; value: string } };
  /** The times of the timestamp column, when the log has one (and how many could not be read as times). */
  asked?: { from: string; to: string; unread: number };
  /** Distinct questions once folded (case, spacing, punctuation, accents), and groups once near-repeats are folded too. */
  distinct: number;
  groups: number;
  similarity: number;
  /** Questions whose near-repeat search stopped at its limits. */
  nearCut: number;
  /** Personal data replaced, by kind; `kept` with --keep-pii. */
  pii: PiiCounts | 'kept';
  size: number;
  seed: number;
  drawn: number;
  head: number;
  tail: number;
  strata?: StratumDraw[];
  out: string;
  summaryFile: string;
}

const n = (x: number): string => x.toLocaleString('en');

const PII_WORDS: Record<PiiKind, [one: string, many: string]> = {
  email: ['e-mail address', 'e-mail addresses'],
  iban: ['IBAN', 'IBANs'],
  card: ['card number', 'card numbers'],
  phone: ['phone number', 'phone numbers'],
  number: ['long number', 'long numbers'],
};

/** The summary in a few lines, for the terminal. Pure. */
export function renderSummary(s: SampleSummary): string {
  const out: string[] = [`answer-eval sample: ${s.log} (${s.format.toUpperCase()}, ${s.encoding}; question column "${s.columns.question}")`];
  const skippedAll = s.skipped.empty + s.skipped.invalid + s.skipped.long;
  const why = [
    ...(s.skipped.empty > 0 ? [`${n(s.skipped.empty)} empty`] : []),
    ...(s.skipped.invalid > 0 ? [`${n(s.skipped.invalid)} invalid`] : []),
    ...(s.skipped.long > 0 ? [`${n(s.skipped.long)} too long`] : []),
  ];
  out.push(`  rows read: ${n(s.rows)}; questions: ${n(s.questions)}; skipped: ${n(skippedAll)}${why.length > 0 ? ` (${why.join(', ')})` : ''}`);
  for (const skip of s.skipped.first) out.push(`    ${s.log}:${skip.line}: ${skip.message}`);
  if (skippedAll > s.skipped.first.length) out.push(`    ... and ${n(skippedAll - s.skipped.first.length)} more`);
  if (s.unreadLanguages.count > 0) {
    const f = s.unreadLanguages.first!;
    out.push(`  language not an ISO 639-1 code on ${plural(s.unreadLanguages.count, 'row').replace(/^\d+/, n(s.unreadLanguages.count))}, taken as not known (the first: ${s.log}:${f.line}: "${f.value}")`);
  }
  if (s.asked) out.push(`  asked from ${s.asked.from} to ${s.asked.to}${s.asked.unread > 0 ? ` (${n(s.asked.unread)} timestamps not read as times)` : ''}`);
  out.push(`  distinct questions: ${n(s.distinct)}; after folding near-repeats (3-gram similarity >= ${s.similarity}): ${n(s.groups)}`);
  if (s.nearCut > 0) out.push(`    the near-repeat search stopped early for ${plural(s.nearCut, 'question').replace(/^\d+/, n(s.nearCut))} (among hundreds of alike texts): a near-repeat of theirs may be left apart`);
  if (s.pii === 'kept') out.push('  personal data: kept as written (--keep-pii)');
  else {
    const pii = s.pii;
    const found = PII_KINDS.filter((k) => pii[k] > 0).map((k) => `${n(pii[k])} ${PII_WORDS[k][pii[k] === 1 ? 0 : 1]}`);
    out.push(`  personal data scrubbed: ${found.length > 0 ? found.join(', ') : 'none found'}`);
  }
  if (s.drawn === s.groups && s.drawn < s.size) out.push(`  drawn: all ${n(s.drawn)} (fewer than --size ${n(s.size)}); seed ${s.seed}`);
  else out.push(`  drawn: ${n(s.drawn)}: the ${n(s.head)} most asked, ${n(s.tail)} uniformly from the other ${n(s.groups - s.head)}; seed ${s.seed}`);
  for (const st of s.strata ?? []) out.push(`    ${st.name}: ${n(st.drawn)} of ${n(st.groups)} (asked ${n(st.asked)} times)`);
  out.push(`  written: ${s.out} (summary: ${s.summaryFile})`);
  return `${out.join('\n')}\n`;
}
