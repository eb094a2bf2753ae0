import { loadKnowledgeBase } from '../engine/kb.js';
import type { EntryInfo } from '../score/metrics/entries.js';

/** A knowledge base's entries as the scoring knows entries: their sequence number, label, category and text. */
export async function knowledgeBaseEntries(path: string): Promise<EntryInfo[]> {
  const kb = await loadKnowledgeBase(path);
  return kb.entries.map((e) => ({ sequence: e.sequenceNumber, label: e.label ?? null, category: e.category ?? null, text: e.answer }));
}
