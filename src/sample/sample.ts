import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { ConfigError, InputError } from '../errors.js';
import { checkEncoding } from '../dataset/decode.js';
import { readLanguage } from '../model/language.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import { drawSample } from './draw.js';
import { foldGroups, type Folded } from './fold.js';
import type { Groups } from './groups.js';
import { DEFAULT_SEED, DEFAULT_SIZE, NEAR_REPEAT_SIMILARITY, type SampleOptions } from './options.js';
import { foldText } from './normalise.js';
import { Languages } from './question.js';
import { countQuestions, readDrawn, textsDrawn } from './readings.js';
import { openLog } from './source.js';
import type { SampleSummary } from './summary.js';
import { checkNotThere, renderSet, setFormat, writeAtomically, type SampledQuestion } from './write.js';

export type { SampleOptions };

/** The summary file beside a question set: `set.csv` → `set.csv.sample.json` (a .jsonl beside it has its own). */
export const summaryPath = (out: string): string => `${out}.sample.json`;

/**
 * A question set drawn from a log of questions asked (`answer-eval sample`): the log read as a stream (twice: to
 * count, then to find how each question drawn was written), personal data scrubbed, repeats and near-repeats folded,
 * a reproducible draw of the most asked and of the long tail, written atomically with a summary beside it.
 */
export async function sampleLog(o: SampleOptions): Promise<SampleSummary> {
  const format = setFormat(o.out);
  const sidecar = summaryPath(o.out);
  if (resolve(o.out) === resolve(o.log)) throw new ConfigError(`--out ${o.out} is the log itself: write the question set to another file`);
  await checkNotThere(o.out, '--out', o.overwrite ?? false);
  await checkNotThere(sidecar, 'the summary file of --out,', o.overwrite ?? false);
  const encoding = checkEncoding(o.encoding);
  const fallback = o.language === undefined ? undefined : readLanguage(o.language);
  if (fallback !== undefined && 'problem' in fallback) throw new ConfigError(`--language ${fallback.problem}`);
  const size = o.size ?? DEFAULT_SIZE;
  const seed = o.seed ?? DEFAULT_SEED;
  const similarity = o.similarity ?? NEAR_REPEAT_SIMILARITY;
  if (!Number.isInteger(size) || size < 1) throw new ConfigError(`--size must be a whole number >= 1, got ${size}`);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new ConfigError(`--seed must be a whole number from 0 to 4294967295, got ${seed}`);
  if (!(similarity > 0 && similarity <= 1)) throw new ConfigError(`--similarity must be above 0 and at most 1, got ${similarity}`);
  const keepPii = o.keepPii ?? false;

  const source = await openLog(o.log, encoding);
  try {
    const languages = new Languages(fallback?.code);
    const first = await countQuestions(source, o.columns ?? {}, languages, keepPii);
    const { groups, columns, skipped } = first;
    if (groups.size === 0) throw nothingToSample(source.name, first.rows, skipped);
    const unreadLanguages = { count: languages.unread, ...(languages.firstUnread ? { first: languages.firstUnread } : {}) };

    groups.counted();
    const folded = foldGroups(groups, similarity);
    const byLanguage = columns.stratify !== undefined && columns.stratify === columns.language;
    const strata = byLanguage ? languages.codes : first.strata;
    const draw = drawSample({ asked: folded.asked, ...(columns.stratify !== undefined ? { stratum: strataOf(folded, groups, byLanguage), strata } : {}) }, size, seed);

    const wanted = textsDrawn(groups, folded, draw.chosen);
    groups.forgetTexts(); // what the second reading looks for is in `wanted`
    const details = await readDrawn(source, columns, first.fingerprint, wanted, draw.chosen.length, languages, keepPii);
    const questions = draw.chosen.map((f, i): SampledQuestion => {
      const g = folded.leader[f]!;
      const language = languages.codes[groups.language[g]!] || undefined;
      const question = details.variants[i]!;
      return {
        id: idOf(question, language),
        question,
        ...(language !== undefined ? { language } : {}),
        count: folded.asked[f]!,
        ...(columns.user !== undefined ? { users: details.users[i]! } : {}),
        source: `${source.name}:${details.lines[i]!.join(',')}`,
      };
    });
    uniqueIds(questions);

    const summary: SampleSummary = {
      log: source.name,
      sha256: first.fingerprint.sha256,
      format: source.format,
      encoding: source.encoding ?? 'utf-8',
      columns,
      rows: first.rows,
      questions: first.questions,
      skipped,
      unreadLanguages,
      ...(first.asked ? { asked: first.asked } : {}),
      distinct: groups.size,
      groups: folded.asked.length,
      similarity,
      nearCut: folded.cut,
      pii: keepPii ? 'kept' : first.pii,
      size,
      seed,
      drawn: questions.length,
      head: draw.head,
      tail: draw.tail,
      ...(draw.strata ? { strata: draw.strata.map((s) => ({ ...s, name: s.name === '' ? '(none)' : s.name })) } : {}),
      out: o.out,
      summaryFile: sidecar,
    };
    await writeAtomically(o.out, renderSet(questions, format), o.overwrite ?? false);
    await writeAtomically(sidecar, `${JSON.stringify(summaryRecord(summary), null, 2)}\n`, true);
    return summary;
  } finally {
    await source.close();
  }
}

/** The stable id of a question: `q-` and 10 hex digits of the sha256 of its language and folded text. */
export const idOf = (question: string, language: string | undefined): string =>
  `q-${createHash('sha256').update(`${language ?? ''}\n${foldText(question, language)}`).digest('hex').slice(0, 10)}`;

/** Two ids alike in 40 bits (as likely as a lottery win): the later one gets the whole hash's first 16 hex digits. */
function uniqueIds(questions: SampledQuestion[]): void {
  const seen = new Set<string>();
  for (const q of questions) {
    if (seen.has(q.id)) q.id = `q-${createHash('sha256').update(`${q.language ?? ''}\n${foldText(q.question, q.language)}\n${q.source}`).digest('hex').slice(0, 16)}`;
    seen.add(q.id);
  }
}

/** Each folded question's stratum: its representative's language, or the --stratify value of its first line. */
function strataOf(folded: Folded, groups: Groups, byLanguage: boolean): Int32Array {
  return folded.leader.map((g) => (byLanguage ? groups.language[g]! : Math.max(0, groups.stratum[g]!)));
}

/** Every row skipped: there is nothing to sample (exit 2), and the first reasons say why. */
function nothingToSample(file: string, rows: number, skipped: SampleSummary['skipped']): InputError {
  const why = rows === 0 ? 'holds no question (no row after the header)' : `no question to sample: every one of its ${rows.toLocaleString('en')} rows was skipped`;
  return new InputError([...skipped.first.map((s) => ({ file, line: s.line, message: s.message })), { file, line: 0, message: why }]);
}

/** The summary as the file beside the question set keeps it. */
function summaryRecord(s: SampleSummary): object {
  const { summaryFile: _, ...rest } = s;
  return { schemaVersion: 1, tool: `${TOOL_NAME} ${TOOL_VERSION}`, ...rest };
}
