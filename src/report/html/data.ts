import { gzipSync, strToU8 } from 'fflate';
import { OUTCOMES } from '../../score/outcome.js';
import { describeExpected } from '../describe.js';
import type { Report, ReportAnswer } from '../schema.js';

/** Flag bits of an answer in the page data, in this order: bit k = FLAG_NAMES[k]. */
export const FLAG_NAMES = ['dummy', 'floor', 'suggestion', 'dialogue', 'dialog-in-progress', 'international', 'not-agent'] as const;

const flagBits = (a: ReportAnswer): number =>
  [a.is_dummy_answer, a.is_dummy_floor_answer, a.is_suggestion_answer, a.is_dialogue_answer, a.is_dialog_in_progress, a.is_international_question, !a.is_agent_answer]
    .reduce((bits, on, k) => (on ? bits | (1 << k) : bits), 0);

/** A distinct answer: [text, sequence_number, label, category, flag bits]. Knowledge answers repeat across questions, so they are stored once. */
export type PageAnswer = [string, number, string, string, number];

/**
 * One question: [id, question, language index, tag indexes, outcome index, expected (words), latency ms | null,
 * attempts, error message | null, ranked list as flat (answer index, score) pairs in service order,
 * position of the top-1 in that list (-1 none), rank of the first matching answer | null, line].
 */
export type PageRow = [string, string, number, number[], number, string, number | null, number, string | null, number[], number, number | null, number];

export interface PageData {
  outcomes: readonly string[];
  flags: readonly string[];
  languages: string[];
  tags: string[];
  answers: PageAnswer[];
  rows: PageRow[];
}

function interner<T>(key: (value: T) => string) {
  const index = new Map<string, number>();
  const values: T[] = [];
  return {
    values,
    id(value: T): number {
      const k = key(value);
      let i = index.get(k);
      if (i === undefined) index.set(k, (i = values.push(value) - 1));
      return i;
    },
  };
}

/** The compact, row-per-question data the page's table reads. */
export function pageData(report: Report): PageData {
  const languages = interner<string>((s) => s);
  const tags = interner<string>((s) => s);
  const answers = interner<PageAnswer>((a) => JSON.stringify(a));
  const rows = report.results.map((r): PageRow => [
    r.id,
    r.question,
    languages.id(r.language),
    r.tags.map((t) => tags.id(t)),
    OUTCOMES.indexOf(r.outcome),
    describeExpected(r.expected),
    r.latencyMs,
    r.attempts,
    r.error ? `${r.error.kind}: ${r.error.message}` : null,
    r.answers.flatMap((a) => [answers.id([a.answer, a.sequence_number, a.label ?? '', a.category ?? '', flagBits(a)]), a.answer_score]),
    r.top1Index ?? -1,
    r.rank ?? null,
    r.line,
  ]);
  return { outcomes: OUTCOMES, flags: FLAG_NAMES, languages: languages.values, tags: tags.values, answers: answers.values, rows };
}

/** The page data as gzip + base64 (the page inflates it with the browser's DecompressionStream). */
export const encodePageData = (data: PageData): string =>
  Buffer.from(gzipSync(strToU8(JSON.stringify(data)), { level: 6, mtime: 0 })).toString('base64');
