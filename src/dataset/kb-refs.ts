import { loadKnowledgeBase, type KnowledgeBase } from '../engine/kb.js';
import { EXPECTATION_FIELDS, EXPECTATION_KEYS, type ExpectationKey, type MatchableAnswer } from '../model/expectations.js';
import { normalizeText } from '../model/normalize.js';

/** What a dataset may refer to in a knowledge base: per expectation field, every value its entries have (normalized). */
export type KbRefs = Record<ExpectationKey, Set<string>>;

/** Reads a knowledge base with the engine's loader (file:line errors) and keeps what expectations may name. */
export const readKbRefs = async (path: string): Promise<KbRefs> => kbRefsOf(await loadKnowledgeBase(path));

/** What expectations may name in a loaded knowledge base. */
export function kbRefsOf(kb: KnowledgeBase): KbRefs {
  const refs = Object.fromEntries(EXPECTATION_KEYS.map((k) => [k, new Set<string>()])) as KbRefs;
  for (const entry of kb.entries) {
    const answer: MatchableAnswer = { answer: entry.answer, sequence_number: entry.sequenceNumber, label: entry.label, category: entry.category, sub_category: entry.subCategory, tags: entry.tags };
    for (const key of EXPECTATION_KEYS) {
      for (const value of EXPECTATION_FIELDS[key].of(answer)) if (value) refs[key].add(normalizeText(value));
    }
  }
  return refs;
}
