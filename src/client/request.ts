import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { EXPECTATION_FIELDS, EXPECTATION_KEYS } from '../model/expectations.js';
import { LANGUAGES, readLanguage } from '../model/language.js';
import type { Question } from '../model/question.js';
import { OUTPUTS, ROW_REQUEST_FIELDS, ROW_REQUEST_KEYS, type Output, type RowRequest } from '../model/request-fields.js';
import { TURN_CHECKS } from '../model/turn-checks.js';
import { quote } from '../model/quote.js';

export { OUTPUTS, type Output } from '../model/request-fields.js';

/**
 * How every question of a run is asked. A dataset row may override language, username and guest, and each request
 * field of ROW_REQUEST_FIELDS (force_subscription, ask_for_metadata, using_repeating_answers, output).
 */
export interface RequestSettings {
  /** Agent id issued by the service operator (`wikiagent`). */
  agent: string;
  /** An ISO 639-1 code (see `runLanguage`). @default 'en' */
  language: string;
  username?: string;
  /** Ask as a guest. @default true */
  guest: boolean;
  /** @default false */
  forceSubscription: boolean;
  /** `question.ask_for_metadata` (2.2); unset: not sent, unless a row sets it. */
  askForMetadata?: boolean;
  /** `question.using_repeating_answers` (2.2); unset: not sent, unless a row sets it. */
  usingRepeatingAnswers?: boolean;
  /** @default 'json' */
  output: Output;
}

const flag = z.enum(['0', '1']);

/** The request body of spec 2.1/2.2, written as the public sample writes it (flags as quoted strings). */
export const AnswerRequestSchema = z
  .object({
    wikiagent: z.string().min(1),
    username: z.string().min(1).optional(),
    guest: flag.optional(),
    question: z.object({ text: z.string().min(1), ask_for_metadata: flag.optional(), using_repeating_answers: flag.optional(), extra_data: z.string().optional() }),
    force_subscription: flag,
    output: z.enum(OUTPUTS),
    language: z.string().refine((l) => LANGUAGES.has(l), 'expected an ISO 639-1 code such as en'),
  })
  .refine((b) => b.username !== undefined || b.guest === '1', {
    message: 'neither a username nor guest access is given: set --username NAME or --guest (per row: username or guest=1)',
    path: ['username'],
  });

export type AnswerRequest = z.infer<typeof AnswerRequestSchema>;

/** The output a question is asked in: its row's, else the run's. */
export const outputOf = (question: Question, settings: RequestSettings): Output => question.request?.output ?? settings.output;

/** The body for one question, as sent; `checkRequestBody` has vetted the run's questions before the first send. */
export function requestBody(question: Question, settings: RequestSettings): AnswerRequest {
  const username = question.username ?? settings.username;
  const guest = question.guest ?? settings.guest;
  const own = question.request;
  const askForMetadata = own?.askForMetadata ?? settings.askForMetadata;
  const usingRepeatingAnswers = own?.usingRepeatingAnswers ?? settings.usingRepeatingAnswers;
  return {
    wikiagent: settings.agent,
    ...(username !== undefined ? { username } : {}),
    ...(guest ? { guest: '1' as const } : {}),
    question: {
      text: question.question,
      ...(askForMetadata !== undefined ? { ask_for_metadata: flagValue(askForMetadata) } : {}),
      ...(usingRepeatingAnswers !== undefined ? { using_repeating_answers: flagValue(usingRepeatingAnswers) } : {}),
      ...(question.extraData !== undefined ? { extra_data: question.extraData } : {}),
    },
    force_subscription: flagValue(own?.forceSubscription ?? settings.forceSubscription),
    output: outputOf(question, settings),
    language: question.language ?? settings.language,
  };
}

const flagValue = (on: boolean): '0' | '1' => (on ? '1' : '0');

/** The JSON of each shape of body (every field but the question's text) around the text, by settings and shape. */
const shapes = new WeakMap<RequestSettings, Map<string, [before: string, after: string]>>();
/** Shapes kept at most per run: a dataset has few (every conversation with its own user is one). */
const SHAPES = 256;
const TEXT_AT = '"question":{"text":';

/**
 * The body for one question as sent, as JSON: `JSON.stringify(requestBody(question, settings))`, built once per
 * distinct shape (user, guest, language, the row's own request fields) and around each question's text after that.
 */
export function requestJson(question: Question, settings: RequestSettings): string {
  if (question.extraData !== undefined) return JSON.stringify(requestBody(question, settings));
  const { username, guest, language, request } = question;
  const key = username === undefined && guest === undefined && language === undefined && request === undefined ? '' : JSON.stringify([username, guest, language, request]);
  let byShape = shapes.get(settings);
  if (byShape === undefined) shapes.set(settings, (byShape = new Map()));
  let parts = byShape.get(key);
  if (parts === undefined) {
    const json = JSON.stringify(requestBody({ ...question, question: '' }, settings));
    // the first such place is the text's: a quote inside any string before it is escaped
    const at = json.indexOf(TEXT_AT) + TEXT_AT.length;
    parts = [json.slice(0, at), json.slice(at + 2)]; // the empty text's `""` left out
    if (byShape.size >= SHAPES) byShape.clear();
    byShape.set(key, parts);
  }
  return parts[0] + JSON.stringify(question.question) + parts[1];
}

/**
 * The request fields a question was asked with that differ from the run's (a row's own value; a row that repeats the
 * run's value is not recorded): what a result keeps as `sent`. Undefined when it was asked as the run asks.
 */
export function sentOf(question: Question, settings: RequestSettings): RowRequest | undefined {
  const own = question.request;
  if (own === undefined) return undefined;
  let sent: RowRequest | undefined;
  for (const key of ROW_REQUEST_KEYS) {
    const value = own[key];
    if (value !== undefined && value !== settings[key]) (sent ??= {})[key] = value as never;
  }
  return sent;
}

/** Builds and checks the body for one question; a bad setting is a ConfigError naming the question. */
export function buildRequestBody(question: Question, settings: RequestSettings): AnswerRequest {
  const checked = AnswerRequestSchema.safeParse(requestBody(question, settings));
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new ConfigError(`question ${quote(question.id)} (line ${question.line}): ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return checked.data;
}

/**
 * Checks one question before anything is sent: its request body (buildRequestBody), and, when it is asked with
 * output=text, that its expectations can be judged from answer texts alone. Without the knowledge base, a text tells
 * no entry and no floor: only `expected_answer` (and a post-processed answer) can be judged; the dialog state never can.
 */
export function vetQuestion(question: Question, settings: RequestSettings, knowledgeBase: boolean): void {
  buildRequestBody(question, settings);
  if (outputOf(question, settings) !== 'text') return;
  const at = `question ${quote(question.id)} (line ${question.line})`;
  if (question.checks?.dialog !== undefined) {
    throw new ConfigError(`${at}: ${TURN_CHECKS.dialog.column} cannot be judged with output=text (a text reply carries no dialog state): ask it with another output (${ROW_REQUEST_FIELDS.output.column} column or --output)`);
  }
  if (knowledgeBase) return;
  const needs = EXPECTATION_KEYS.filter((k) => k !== 'answer' && question.expected[k] !== undefined).map((k) => EXPECTATION_FIELDS[k].column);
  const any = question.expect !== null && !EXPECTATION_KEYS.some((k) => question.expected[k] !== undefined);
  if (needs.length === 0 && !any) return;
  const what = needs.length > 0 ? needs.join(', ') : question.expect === 'fallback' ? 'expect=fallback (a floor answer)' : 'expect=answer (any knowledge answer)';
  throw new ConfigError(
    `${at}: ${what} cannot be judged from a text reply without the knowledge base: give --kb FILE (the one the service answers from), ` +
      'judge by expected_answer alone, or ask with another output',
  );
}

/**
 * The run's `--language`: an ISO 639-1 code in any case, or a region form (`en-US`) read as its code, with a note
 * (`onNote`); anything else is a ConfigError saying what was expected.
 */
export function runLanguage(value: string, onNote?: (note: string) => void): string {
  const read = readLanguage(value);
  if ('problem' in read) throw new ConfigError(`--language ${read.problem}`);
  if (read.region !== undefined) onNote?.(`--language ${value} is sent as "${read.code}": the spec's language is an ISO 639-1 code, without a region`);
  return read.code;
}
