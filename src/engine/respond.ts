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

/** A user's dialogue state as every answer item reports it (spec 2.4). */
export interface DialogueFlags {
  /** A dialogue is open after this answer: the user's next question is matched against follow-ups first. */
  inProgress: boolean;
  /** The answer is a follow-up matched inside the dialogue. */
  dialogueAnswer: boolean;
}

export const NO_DIALOGUE: DialogueFlags = { inProgress: false, dialogueAnswer: false };

interface ItemFlags {
  agent: boolean;
  dummy: boolean;
  floor: boolean;
  suggestion: boolean;
  international: boolean;
  dialogue: DialogueFlags;
  /** Seconds before the next question; undefined: "-1", none asked. */
  delay: number | undefined;
}

const flags = (o: ItemFlags): AnswerItem => ({
  is_agent_answer: String(o.agent),
  is_dummy_answer: String(o.dummy),
  is_dummy_floor_answer: String(o.floor),
  is_suggestion_answer: String(o.suggestion),
  is_international_question: String(o.international),
  is_dialog_in_progress: String(o.dialogue.inProgress),
  is_dialogue_answer: String(o.dialogue.dialogueAnswer),
  delay: o.delay === undefined ? '-1' : String(o.delay),
});

function entryItem(entry: KbEntry, score: number, suggestion: boolean, language: string, dialogue: DialogueFlags): AnswerItem {
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
    ...flags({
      agent: true,
      dummy: entry.smallTalk,
      floor: false,
      suggestion,
      international: entry.language !== language,
      dialogue,
      delay: entry.delay,
    }),
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
    ...flags({ agent: false, dummy: true, floor: true, suggestion: false, international: false, dialogue: NO_DIALOGUE, delay: undefined }),
  };
}

/** The entry the reply gives first, or undefined when the best score is below the floor. Pure. */
export const topEntry = (ranked: Ranked[], t: Thresholds): KbEntry | undefined =>
  ranked[0] && ranked[0].score >= t.floor ? ranked[0].entry : undefined;

/**
 * Ranked entries → the `answers` list, best first: the top entry, then suggestions, or the floor. Every entry
 * item carries the user's dialogue state after this answer. Pure.
 */
export function buildAnswers(ranked: Ranked[], language: string, t: Thresholds, dialogue: DialogueFlags = NO_DIALOGUE): AnswerItem[] {
  const [top, ...rest] = ranked;
  if (!top || top.score < t.floor) return [floorItem(language, top?.score ?? 0)];
  const suggestions = rest
    .filter((r) => r.score >= t.suggestion && r.score >= t.floor && !r.entry.smallTalk)
    .slice(0, t.maxSuggestions);
  return [
    entryItem(top.entry, top.score, false, language, dialogue),
    ...suggestions.map((r) => entryItem(r.entry, r.score, true, language, dialogue)),
  ];
}

/** The single answer of a follow-up matched inside a dialogue. Pure. */
export const followUpAnswer = (match: Ranked, language: string, inProgress: boolean): AnswerItem[] => [
  entryItem(match.entry, match.score, false, language, { inProgress, dialogueAnswer: true }),
];
