import type { KbEntry } from './kb.js';
import type { Ranked } from './retrieval.js';

/** One item of `answers`, every value a string as in the spec's sample (2.4). */
export type AnswerItem = Record<string, string>;

export interface AnswerResponse {
  post_processed_answer?: string;
  answers: AnswerItem[];
}

export interface Thresholds {
  /** Below this score the single reply is the floor answer. */
  floor: number;
  /** Runner-ups at or above this score come back as suggestions. */
  suggestion: number;
  /** At most this many suggestions. */
  maxSuggestions: number;
}

const FLOOR_TEXT: Record<string, string> = {
  en: "Sorry, I don't know the answer to that. Could you rephrase your question?",
  it: 'Mi dispiace, non conosco la risposta. Puoi riformulare la domanda?',
  de: 'Das weiß ich leider nicht. Kannst du die Frage anders formulieren?',
  fr: 'Désolé, je ne connais pas la réponse. Pouvez-vous reformuler la question ?',
  es: 'Lo siento, no conozco la respuesta. ¿Puedes reformular la pregunta?',
};

/** Sequence number of the floor answer, which is not a knowledge-base entry. */
export const FLOOR_SEQUENCE = '0';

const flags = (o: { agent: boolean; dummy: boolean; floor: boolean; suggestion: boolean; international: boolean }): AnswerItem => ({
  is_agent_answer: String(o.agent),
  is_dummy_answer: String(o.dummy),
  is_dummy_floor_answer: String(o.floor),
  is_suggestion_answer: String(o.suggestion),
  is_international_question: String(o.international),
  is_dialog_in_progress: 'false',
  is_dialogue_answer: 'false',
  delay: '-1',
});

function entryItem(entry: KbEntry, score: number, suggestion: boolean, language: string): AnswerItem {
  const optional: [string, string | undefined][] = [
    ['theme', entry.theme],
    ['context', entry.context],
    ['snippet', entry.snippet],
    ['tags', entry.tags.length ? entry.tags.join('|') : undefined],
    ['label', entry.label],
    ['category', entry.category],
    ['sub_category', entry.subCategory],
  ];
  return {
    answer: entry.answer,
    ...Object.fromEntries(optional.filter((pair): pair is [string, string] => pair[1] !== undefined)),
    sequence_number: String(entry.sequenceNumber),
    answer_score: String(score),
    answer_language: entry.language,
    ...flags({ agent: true, dummy: entry.smallTalk, floor: false, suggestion, international: entry.language !== language }),
  };
}

/** The floor answer in the question's language (English when there is no text for it). */
export function floorItem(language: string, score: number): AnswerItem {
  const text = FLOOR_TEXT[language];
  return {
    answer: text ?? FLOOR_TEXT.en ?? '',
    snippet: 'FLOOR',
    sequence_number: FLOOR_SEQUENCE,
    answer_score: String(score),
    answer_language: text ? language : 'en',
    ...flags({ agent: false, dummy: true, floor: true, suggestion: false, international: false }),
  };
}

/** Ranked entries → the `answers` list, best first: the top entry, then suggestions, or the floor. Pure. */
export function buildAnswers(ranked: Ranked[], language: string, t: Thresholds): AnswerItem[] {
  const [top, ...rest] = ranked;
  if (!top || top.score < t.floor) return [floorItem(language, top?.score ?? 0)];
  const suggestions = rest
    .filter((r) => r.score >= t.suggestion && r.score >= t.floor && !r.entry.smallTalk)
    .slice(0, t.maxSuggestions);
  return [entryItem(top.entry, top.score, false, language), ...suggestions.map((r) => entryItem(r.entry, r.score, true, language))];
}
