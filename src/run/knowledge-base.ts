import { loadKnowledgeBase, type KnowledgeBase } from '../engine/kb.js';
import type { EntryInfo } from '../score/metrics/entries.js';

/** A knowledge base's entries as the scoring knows entries: their sequence number, label, category and text. */
export const knowledgeBaseEntries = async (path: string): Promise<EntryInfo[]> => entriesOf(await loadKnowledgeBase(path));

/** The entries of a loaded knowledge base, as the scoring knows them. */
export const entriesOf = (kb: KnowledgeBase): EntryInfo[] =>
  kb.entries.map((e) => ({ sequence: e.sequenceNumber, label: e.label ?? null, category: e.category ?? null, text: e.answer }));
