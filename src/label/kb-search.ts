import type { KbEntry } from '../engine/kb.js';
import { normalizeText } from '../model/normalize.js';
import type { KbHit } from '../pages/label/data.js';

/** The most entries a search returns. */
export const KB_HITS = 20;

/** An entry's text a search looks in: its number, label, category, answer and example questions. */
const haystack = (e: KbEntry): string => normalizeText([e.sequenceNumber, e.label, e.category, e.subCategory, e.answer, ...e.examples].filter(Boolean).join(' \u0000 '));

/** What a page shows of an entry: the answer cut to 300 characters. */
export const hitOf = (e: KbEntry): KbHit => ({ sequence: e.sequenceNumber, ...(e.label !== undefined ? { label: e.label } : {}), ...(e.category !== undefined ? { category: e.category } : {}), text: e.answer.length > 300 ? `${e.answer.slice(0, 300)}…` : e.answer });

/**
 * The entries a search names: its sequence number exactly, or every word of it (normalized as answers are
 * compared) in the entry's number, label, category, answer or examples. The number first, then a label equal to the
 * query, then the entries whose label holds a word of it, then the knowledge base's order; at most KB_HITS.
 */
export function searchKb(entries: readonly KbEntry[], query: string): KbHit[] {
  const q = normalizeText(query);
  if (q === '') return entries.slice(0, KB_HITS).map(hitOf);
  const words = q.split(' ');
  const ranked: { e: KbEntry; rank: number; at: number }[] = [];
  entries.forEach((e, at) => {
    if (String(e.sequenceNumber) === q) return void ranked.push({ e, rank: 0, at });
    const text = haystack(e);
    if (!words.every((w) => text.includes(w))) return;
    const label = normalizeText(e.label ?? '');
    ranked.push({ e, rank: label === q ? 1 : words.some((w) => label.includes(w)) ? 2 : 3, at });
  });
  ranked.sort((a, b) => a.rank - b.rank || a.at - b.at);
  return ranked.slice(0, KB_HITS).map((r) => hitOf(r.e));
}
