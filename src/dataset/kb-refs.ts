import { loadKnowledgeBase } from '../engine/kb.js';
import { normalizeText } from '../score/normalize.js';

/**
 * What a dataset may refer to in a knowledge base: sequence numbers, and labels, categories and tags
 * (normalized as answers are compared).
 */
export interface KbRefs {
  sequences: Set<number>;
  labels: Set<string>;
  categories: Set<string>;
  tags: Set<string>;
}

/** Reads a knowledge base with the engine's loader (file:line errors) and keeps what expectations may name. */
export async function readKbRefs(path: string): Promise<KbRefs> {
  const kb = await loadKnowledgeBase(path);
  const refs: KbRefs = { sequences: new Set(), labels: new Set(), categories: new Set(), tags: new Set() };
  for (const entry of kb.entries) {
    refs.sequences.add(entry.sequenceNumber);
    if (entry.label) refs.labels.add(normalizeText(entry.label));
    if (entry.category) refs.categories.add(normalizeText(entry.category));
    for (const tag of entry.tags) refs.tags.add(normalizeText(tag));
  }
  return refs;
}
