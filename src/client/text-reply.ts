import { normalizeText } from '../model/normalize.js';
import { NO_ENTRY, type AnswerItem } from '../model/answer.js';
import { excerpt, MAX_ANSWERS_PER_REPLY, tooManyAnswers, type ParsedResponse } from './response.js';

// An output=text reply holds the answers' texts and nothing else (docs/spec-coverage.md): no score, no sequence
// number, no flag. It is read as one answer a paragraph, best first; a paragraph starting `post_processed_answer:` is
// the post-processed answer. With the knowledge base known (the embedded engine's, or --kb beside a service), each
// text is looked up among the entries' answers, so an answer's entry (sequence number, label, category, tags...)
// is recovered and expectations on them work; a text no entry has is the floor answer.

/** A knowledge-base entry as a text reply is read against it (the engine's KbEntry has these fields). */
export interface TextEntry {
  sequenceNumber: number;
  answer: string;
  theme?: string | undefined;
  context?: string | undefined;
  snippet?: string | undefined;
  tags: readonly string[];
  label?: string | undefined;
  category?: string | undefined;
  subCategory?: string | undefined;
  language: string;
  smallTalk: boolean;
  delay?: number | undefined;
}

/**
 * The entries of a knowledge base by their answer text (normalized as expected_answer compares texts), indexed by the
 * first text reply: a run that asks none keeps no index.
 */
export class TextKnowledge {
  #byText: Map<string, TextEntry[]> | undefined;

  constructor(private readonly entries: readonly TextEntry[]) {}

  /** The entry whose answer a text is: of the question's language when several entries share the text, else the first. */
  entryOf(text: string, language: string): TextEntry | undefined {
    const entries = this.#index().get(normalizeText(text));
    return entries?.find((e) => e.language === language) ?? entries?.[0];
  }

  #index(): Map<string, TextEntry[]> {
    if (this.#byText !== undefined) return this.#byText;
    const byText = new Map<string, TextEntry[]>();
    for (const entry of this.entries) {
      const key = normalizeText(entry.answer);
      const same = byText.get(key);
      if (same) same.push(entry);
      else byText.set(key, [entry]);
    }
    return (this.#byText = byText);
  }
}

const PPA = /^post_processed_answer:[ \t]*/i;

/**
 * The answer items of a text reply, and its post-processed answer. Pure; never fails but on a JSON body, an HTML page
 * or more paragraphs than a reply may hold answers (MAX_ANSWERS_PER_REPLY, the post-processed answer aside).
 */
export function parseTextReply(body: string, language: string, knowledge?: TextKnowledge): ParsedResponse {
  if (/^\s*\{\s*"/.test(body)) {
    try {
      JSON.parse(body);
      return { ok: false, message: `the body is JSON, not the text that was asked for (does the service ignore "output"?): ${JSON.stringify(excerpt(body))}` };
    } catch {
      // text that starts with a brace: read as text
    }
  }
  // a web page (a proxy's or a maintenance page) is no answer text: read as text, it would be the floor answer
  if (/^\s*(?:<!doctype\s+html|<html[\s>])/i.test(body)) {
    return { ok: false, message: `the body is an HTML page, not the text that was asked for: ${JSON.stringify(excerpt(body))}` };
  }
  // the answers and the post-processed answer: one paragraph more than the answers a reply may hold
  let paragraphs = paragraphsOf(body.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'), MAX_ANSWERS_PER_REPLY + 1);
  if (paragraphs === undefined) return { ok: false, message: tooManyAnswers(body) };
  const at = paragraphs.findIndex((p) => PPA.test(p));
  const ppa = at < 0 ? undefined : paragraphs[at]!.replace(PPA, '').trim();
  if (at >= 0) paragraphs = paragraphs.filter((_, i) => i !== at);
  if (paragraphs.length > MAX_ANSWERS_PER_REPLY) return { ok: false, message: tooManyAnswers(body) };
  // one answer of several paragraphs, when the knowledge base says so and the paragraphs alone are not all answers
  if (knowledge && paragraphs.length > 1 && !paragraphs.every((p) => knowledge.entryOf(p, language))) {
    const whole = paragraphs.join('\n\n');
    if (knowledge.entryOf(whole, language)) paragraphs = [whole];
  }
  const answers = paragraphs.map((text, i) => textItem(text, i, language, knowledge));
  return { ok: true, response: { ...(ppa !== undefined ? { post_processed_answer: ppa } : {}), answers } };
}

const BLANK_LINE = /\n[ \t]*\n/g;

/** The non-empty paragraphs of a text (trimmed), read up to `most` of them: undefined when it holds more. */
function paragraphsOf(text: string, most: number): string[] | undefined {
  const out: string[] = [];
  BLANK_LINE.lastIndex = 0;
  for (let at = 0; ; ) {
    const m = BLANK_LINE.exec(text);
    const paragraph = text.slice(at, m ? m.index : text.length).trim();
    if (paragraph !== '') {
      if (out.length === most) return undefined;
      out.push(paragraph);
    }
    if (m === null) return out;
    at = m.index + m[0].length;
  }
}

const FLAGS_OFF = {
  is_dummy_answer: false,
  is_dummy_floor_answer: false,
  is_suggestion_answer: false,
  is_international_question: false,
  is_dialog_in_progress: false,
  is_dialogue_answer: false,
};

/**
 * One text as an answer item, its keys in the schema's order. Every score is 0 (the order is the body's); the
 * answers after the first are suggestions, as the engine gives them; the dialogue flags are not known (false).
 */
function textItem(answer: string, i: number, language: string, knowledge: TextKnowledge | undefined): AnswerItem {
  const entry = knowledge?.entryOf(answer, language);
  if (entry === undefined) {
    // with the knowledge base known, a text none of its entries has is the service's floor answer
    const floor = knowledge !== undefined;
    return {
      answer,
      sequence_number: NO_ENTRY,
      answer_score: 0,
      tags: [],
      is_agent_answer: !floor,
      ...FLAGS_OFF,
      is_dummy_answer: floor,
      is_dummy_floor_answer: floor,
      delay: -1,
    } as AnswerItem;
  }
  const optional = (key: string, value: string | undefined): Record<string, string> => (value === undefined ? {} : { [key]: value });
  return {
    answer,
    ...optional('theme', entry.theme),
    ...optional('context', entry.context),
    ...optional('snippet', entry.snippet),
    sequence_number: entry.sequenceNumber,
    answer_score: 0,
    tags: [...entry.tags],
    ...optional('label', entry.label),
    ...optional('category', entry.category),
    ...optional('sub_category', entry.subCategory),
    answer_language: entry.language,
    is_agent_answer: true,
    ...FLAGS_OFF,
    is_dummy_answer: entry.smallTalk,
    is_suggestion_answer: i > 0,
    is_international_question: entry.language !== language,
    delay: entry.delay ?? -1,
  } as AnswerItem;
}
