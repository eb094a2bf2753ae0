import { loadKnowledgeBase, type KnowledgeBase } from '../engine/kb.js';
import type { CoverageRef } from '../model/coverage.js';
import type { EntryInfo } from '../score/metrics/entries.js';
import { truncate } from '../util/text.js';

/** A knowledge base's entries as the scoring knows entries: their sequence number, label, category and text. */
export const knowledgeBaseEntries = async (path: string): Promise<EntryInfo[]> => entriesOf(await loadKnowledgeBase(path));

/** The entries of a loaded knowledge base, as the scoring knows them. */
export const entriesOf = (kb: KnowledgeBase): EntryInfo[] =>
  kb.entries.map((e) => ({ sequence: e.sequenceNumber, label: e.label ?? null, category: e.category ?? null, text: e.answer }));

/** The entries of a loaded knowledge base as its coverage lists them: a title is its theme, else the start of its answer. */
export const coverageRefsOf = (kb: KnowledgeBase): CoverageRef[] =>
  kb.entries.map((e) => ({ sequence: e.sequenceNumber, label: e.label ?? null, title: truncate(e.theme ?? e.answer, 80), ...(e.dialogueOnly ? { dialogueOnly: true as const } : {}) }));
