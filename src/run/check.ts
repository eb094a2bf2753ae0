import { vetQuestion, type RequestSettings } from '../client/request.js';
import { regionLanguageNote } from '../dataset/language-note.js';
import { unlabeledNote } from '../dataset/unlabeled-note.js';
import { kbRefsOf, type KbRefs } from '../dataset/kb-refs.js';
import { metadataProblems, reportedMetadata } from '../dataset/metadata.js';
import { checkQuestions, checkUnchanged } from '../dataset/read.js';
import type { DatasetSource } from '../dataset/source.js';
import { missingInKb } from '../dataset/validate.js';
import type { KnowledgeBase } from '../engine/kb.js';
import { formatProblem, InputError, type InputProblem } from '../errors.js';
import type { Aliases } from '../model/expectations.js';
import { questionsOfItem, type DatasetItem, type Question } from '../model/question.js';
import { limits } from '../util/limits.js';
import type { DatasetFacts, Resolved } from './head.js';
import type { PriorResults } from './prior.js';
import type { SecretSightings } from './secret-sightings.js';
import { checkInterrupted } from './stop-reasons.js';
import { kindOf } from './kinds.js';
import type { Checks } from './work.js';

/** Expectations the knowledge base cannot meet, named one by one; the others are counted. */
const NAMED_MISMATCHES = 20;

/** What the check of a run's dataset is given. */
export interface CheckSetup {
  o: Resolved;
  settings: RequestSettings;
  sightings: SecretSightings;
  kb: KnowledgeBase | undefined;
  aliases: Aliases | undefined;
  prior: PriorResults | undefined;
  runName: string;
  /** Whether an item is the run's (its shard's). */
  mine: (item: DatasetItem) => boolean;
}

/** What the check found: the dataset as the journal and the report describe it, and the run's size. */
export interface Checked {
  dataset: DatasetFacts;
  /** Questions of the run (its shard's; turns included). */
  total: number;
  /** Askings the journal lacks: to make now. */
  toAsk: number;
  /** The run's items (its shard's) in file order, kept from the check when they fit in memory (see KeptItems). */
  items?: readonly DatasetItem[];
}

/**
 * Pass 1 of a run: the whole dataset in one streaming pass, every problem found before anything is sent (bad rows,
 * requests that cannot be built, settings the dataset cannot take), what the journal holds looked up, and what may
 * not be what was meant told (expectations the knowledge base cannot meet, secrets in the dataset, metadata left out,
 * a dataset without ids).
 */
export async function checkRun(source: DatasetSource, s: CheckSetup): Promise<Checked> {
  const { o, prior } = s;
  const check = new RunCheck(s, source.name);
  let byLine = 0; // items named by their line (no id given)
  const kept = new KeptItems(source.bytes);
  const checked = await checkQuestions(source, (item) => {
    if (o.signal?.aborted) throw checkInterrupted(o.signal.reason, prior !== undefined);
    if (item.id === String(item.line)) byLine++;
    if (!s.mine(item)) return;
    kindOf(item).check(item, check);
    kept.add(item);
  });
  if (checked.problems.length > 0) throw new InputError(checked.problems);
  if (check.refused) throw check.refused;
  prior?.checkUnknown();
  prior?.close();
  check.tell();
  for (const p of metadataProblems(checked.metadata, source.name)) o.onWarning?.(formatProblem(p));
  const regions = regionLanguageNote(checked.regionLanguages, source.name);
  if (regions) o.onWarning?.(formatProblem(regions));
  const unlabeled = unlabeledNote(source.name, checked.judged, checked.metadata.columns);
  if (unlabeled) o.onWarning?.(formatProblem(unlabeled));
  const metadata = reportedMetadata(checked.metadata);
  const idsByLine = byLine > 0 && !checked.columns.includes('id');
  if (idsByLine) {
    o.onWarning?.(
      `${source.name} has no id column: its questions are named by their line. compare and --baseline match questions by id, so a row ` +
        'added or removed renames every question after it (a regression gate then cannot be judged, and fails); give each row a stable id',
    );
  }
  const dataset: DatasetFacts = {
    path: source.name,
    sha256: checked.sha256,
    questions: checked.count,
    ...(source.encoding ? { encoding: source.encoding } : {}),
    ...(checked.conversations > 0 ? { conversations: checked.conversations } : {}),
    ...(idsByLine ? { idsByLine } : {}),
    ...(metadata ? { metadata } : {}),
  };
  await checkUnchanged(source);
  return { dataset, total: check.total, toAsk: check.toAsk, ...(kept.items ? { items: kept.items } : {}) };
}

/** What a kept question is taken to cost besides its text: its objects (about 600 bytes measured for a short one, text included). */
const QUESTION_BYTES = 512;

/**
 * The run's items as the check read them, kept while their estimated size (every question's objects, and the file's
 * text at two bytes a character, the most a string takes) stays within limits.keptItemsBytes. A set kept is asked from
 * memory: the dataset is not parsed a second time while the replies come in, which cost a quarter of the questions
 * a second at concurrency 64 (bench a, BENCHMARKS.md). A larger set is read again as a stream, its memory bounded by a page.
 */
class KeptItems {
  #items: DatasetItem[] | undefined;
  #bytes: number;

  constructor(fileBytes: number) {
    this.#bytes = 2 * fileBytes;
    this.#items = this.#bytes <= limits.keptItemsBytes ? [] : undefined;
  }

  add(item: DatasetItem): void {
    if (this.#items === undefined) return;
    this.#bytes += QUESTION_BYTES * questionsOfItem(item).length;
    if (this.#bytes > limits.keptItemsBytes) this.#items = undefined;
    else this.#items.push(item);
  }

  /** The items, unless they did not fit. */
  get items(): readonly DatasetItem[] | undefined {
    return this.#items;
  }
}

/** What the kinds of items tell the check, gathered (see Checks). */
class RunCheck implements Checks {
  total = 0;
  toAsk = 0;
  refused: Error | undefined;
  readonly #kbRefs: KbRefs | undefined;
  readonly #mismatches: InputProblem[] = [];
  #mismatchCount = 0;

  constructor(
    private readonly s: CheckSetup,
    readonly file: string,
  ) {
    // expectations the knowledge base cannot meet: told, not refused (the run measures the service as it is)
    this.#kbRefs = s.kb && s.o.onKbMismatch ? kbRefsOf(s.kb) : undefined;
  }

  get repeat(): number {
    return this.s.o.repeat;
  }

  get runName(): string {
    return this.s.runName;
  }

  get prior(): PriorResults | undefined {
    return this.s.prior;
  }

  count(slots: number, toAsk: number): void {
    this.total += slots;
    this.toAsk += toAsk;
  }

  vet(q: Question): void {
    try {
      vetQuestion(q, this.s.settings, this.s.kb !== undefined);
    } catch (error) {
      this.refuse(error as Error);
    }
  }

  look(q: Question): void {
    if (this.#kbRefs) {
      for (const problem of missingInKb(q, this.#kbRefs, this.file, this.s.aliases)) if (++this.#mismatchCount <= NAMED_MISMATCHES) this.#mismatches.push(problem);
    }
    this.s.sightings.question(q, this.file);
  }

  refuse(error: Error): void {
    this.refused ??= error;
  }

  /** Tells, once, what may not be what was meant: expectations the knowledge base cannot meet, secrets in the text. */
  tell(): void {
    const { o, sightings } = this.s;
    if (this.#mismatchCount > 0) o.onKbMismatch?.(this.#mismatches, this.#mismatchCount);
    for (const warning of sightings.warnings()) o.onWarning?.(warning);
  }
}
