import { readFile, realpath, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { openDataset } from '../dataset/source.js';
import { scanDataset } from '../dataset/read.js';
import { loadKnowledgeBase, type KbEntry } from '../engine/kb.js';
import { ConfigError, InputError } from '../errors.js';
import type { ReportHead } from '../model/source.js';
import type { LabelItem } from '../pages/label/data.js';
import { openReport, reportFile } from '../report/read.js';
import { readJournalHeader } from '../run/journal-read.js';
import { isToLabel, itemOf } from './items.js';
import type { SetFormat } from './set-file.js';

/** What a labeling session works on, read once when it starts. */
export interface LabelSources {
  /** The run's report.json. */
  reportPath: string;
  head: ReportHead;
  /** Every question of the run to label, by id, in the run's order. */
  items: Map<string, LabelItem>;
  /** The question set: its path as given, its real path (the one file written), its format. */
  setName: string;
  setPath: string;
  format: SetFormat;
  /** The decision log beside it. */
  logPath: string;
  kb?: { path: string; entries: KbEntry[] };
  /** The floor threshold the run's answers were judged against, when known (the embedded engine's, a rescore's). */
  floor?: number;
  /** What the editor should know from the start. */
  notes: string[];
}

export interface LoadOptions {
  /** A run directory or its report.json. */
  run: string;
  /** The question set file; default: the run's (report.json `run.dataset.path`). */
  dataset?: string;
  /** A knowledge base to search; default: the embedded engine's, when the run used it. */
  kb?: string;
  /** Also the questions judged wrong (wrong, abstained, fallback missed). */
  wrong?: boolean;
}

const PIPE = /^\/(dev\/(fd\/|stdin$)|proc\/(self|\d+)\/fd\/)/;

/** The question set to write: the one named, or the run's; a pipe, a missing file or anything but a file is refused, saying how to name it. */
async function setFile(head: ReportHead, given: string | undefined): Promise<string> {
  const path = given ?? head.run.dataset.path;
  const from = given === undefined ? ` (the run's question set, as report.json names it in run.dataset.path)` : '';
  if (given === undefined && PIPE.test(path)) {
    throw new ConfigError(`${path}: the run read its questions from a pipe, which cannot be written back: name the question set file with -d FILE`);
  }
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) throw new ConfigError(`${path}: no such file${from}: name the question set file with -d FILE`);
  if (!info.isFile()) throw new ConfigError(`${path}: not a regular file${from}: answer-eval label writes labels into a question set file, named with -d FILE`);
  return path;
}

/** Refuses a set that is not UTF-8 (labels are written as UTF-8 text, every other byte kept). */
async function checkUtf8(path: string, declared: string | undefined): Promise<void> {
  if (declared !== undefined && !/^utf-?8$/i.test(declared)) {
    throw new ConfigError(`${path}: the run read it as ${declared} (--encoding): answer-eval label writes UTF-8 question sets only; save it as UTF-8 and label with -d`);
  }
  const bytes = await readFile(path);
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new ConfigError(`${path}: UTF-16 (it starts with a UTF-16 byte-order mark): answer-eval label writes UTF-8 question sets only; save it as UTF-8`);
  }
}

/** The knowledge base to search: the one named (its errors are the user's), or the embedded engine's (a note when it is not there). */
async function knowledgeBase(head: ReportHead, given: string | undefined, notes: string[]): Promise<LabelSources['kb']> {
  if (given !== undefined) return { path: given, entries: (await loadKnowledgeBase(given)).entries };
  const path = head.run.engine?.kb.path;
  if (path === undefined) return undefined;
  const kb = await loadKnowledgeBase(path).catch(() => undefined);
  if (kb === undefined) notes.push(`the run's knowledge base ${path} cannot be read from here: give --kb FILE to search it`);
  return kb && { path, entries: kb.entries };
}

/**
 * Reads what a labeling session needs: the run's report (its questions to label, answers and all), the question set
 * (checked as `validate` checks it: a set with errors is not written to), the knowledge base.
 */
export async function loadSources(o: LoadOptions): Promise<LabelSources> {
  const reportPath = await reportFile(o.run);
  const { head, results } = await openReport(reportPath);
  const setName = await setFile(head, o.dataset);
  const journal = await readJournalHeader(dirname(reportPath)).catch(() => undefined);
  await checkUtf8(setName, o.dataset === undefined ? journal?.dataset.encoding : undefined);
  const source = await openDataset(setName);
  const scan = await scanDataset(source).finally(() => source.close());
  const errors = scan.problems.filter((p) => p.severity !== 'warning');
  if (errors.length > 0) throw new InputError(errors);
  const notes: string[] = [];
  const kb = await knowledgeBase(head, o.kb, notes);
  const floor = head.run.rescored?.floor ?? head.run.engine?.floorThreshold ?? undefined;
  const items = new Map<string, LabelItem>();
  for (const r of results) if (isToLabel(r, o.wrong ?? false)) items.set(r.id, itemOf(r, floor));
  const setPath = await realpath(setName);
  return { reportPath, head, items, setName, setPath, format: source.format, logPath: `${setPath}.labels.jsonl`, ...(kb ? { kb } : {}), ...(floor !== undefined ? { floor } : {}), notes };
}
