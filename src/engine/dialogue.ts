import type { KbEntry, KnowledgeBase } from './kb.js';
import { indexEntries, type Ranked, type Retriever } from './retrieval.js';

/** Matches a user's next question against the follow-ups of the dialogue step they are at. */
export interface FollowUps {
  /** The entry with this sequence number (a session keeps only the number of its step). */
  entry(sequenceNumber: number): KbEntry | undefined;
  /** The follow-up of `step` that best answers the question, when it scores at least the threshold. */
  match(step: KbEntry, question: string): Ranked | undefined;
}

/**
 * One small index per distinct list of follow-ups, built once. Stop words are kept as terms: the reply to a
 * question the engine asked is often short ("no", "not yet", "only mine"), and those words are all it says.
 */
export function createFollowUps(kb: KnowledgeBase, threshold: number): FollowUps {
  const bySequence = new Map(kb.entries.map((e) => [e.sequenceNumber, e]));
  const indexes = new Map<string, Retriever>();
  for (const entry of kb.entries) {
    const key = entry.followUps.join(',');
    if (!entry.followUps.length || indexes.has(key)) continue;
    // checkKb has made sure every follow-up names an entry in the same language
    const steps = entry.followUps.flatMap((n) => bySequence.get(n) ?? []);
    indexes.set(key, indexEntries(steps, { analyzer: { keepStopWords: true, anyNumber: true }, classifierWeight: 0 }));
  }
  return {
    entry: (n) => bySequence.get(n),
    match(step, question) {
      const [best] = indexes.get(step.followUps.join(','))?.answer(question, step.language, 1) ?? [];
      return best && best.score >= threshold ? best : undefined;
    },
  };
}
