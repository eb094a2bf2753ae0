import { z } from 'zod';
import { readLanguage } from '../model/language.js';

export const OUTPUTS = ['json', 'xml', 'html', 'text'] as const;
export type Output = (typeof OUTPUTS)[number];

/** A request body that passed every check of spec 2.1, 2.2 and 4.1. */
export interface AnswerRequest {
  wikiagent: string;
  username?: string;
  guest: boolean;
  question: { text: string; askForMetadata: boolean; usingRepeatingAnswers: boolean; extraData?: string };
  forceSubscription: boolean;
  output: Output;
  language: string;
}

/** Why a request is rejected with 400: the field at fault and what it needs. */
export interface RequestProblem {
  field: string;
  message: string;
}

// The spec's sample writes flags as quoted strings; numbers and booleans are accepted too.
const flag = z
  .union([z.literal(0), z.literal(1), z.literal('0'), z.literal('1'), z.boolean()], {
    error: 'must be 0 or 1 (a number or a quoted string, as in the spec sample)',
  })
  .transform((v) => v === 1 || v === '1' || v === true);

const schema = z.object({
  wikiagent: z.string({ error: 'must be a string: the agent id' }).min(1, 'must not be empty'),
  username: z.string({ error: 'must be a string' }).optional(),
  guest: flag.optional(),
  question: z.object(
    {
      text: z.string({ error: 'must be a string: the text of the question' }).refine((t) => t.trim() !== '', 'must not be empty'),
      ask_for_metadata: flag.optional(),
      using_repeating_answers: flag.optional(),
      extra_data: z.string({ error: 'must be a string holding XML' }).optional(),
    },
    { error: 'must be an object with a "text" field' },
  ),
  force_subscription: flag,
  output: z.enum(OUTPUTS, { error: `must be one of ${OUTPUTS.join(', ')}` }),
  language: z.string({ error: 'must be an ISO 639-1 code such as "en"' }),
});

/** Checks a parsed JSON body. Any ISO 639-1 code is a language (a region form such as pt-BR reads as pt). Pure. */
export function parseAnswerRequest(body: unknown): AnswerRequest | RequestProblem {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { field: '(body)', message: 'must be a JSON object (spec 2.1)' };
  }
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue?.path.join('.') || '(body)';
    const missing = issue?.code === 'invalid_type' && issue.input === undefined;
    return { field, message: missing ? 'is required (spec 4.1 rule 1)' : (issue?.message ?? 'is invalid') };
  }
  const r = result.data;
  const username = r.username?.trim() || undefined;
  const guest = r.guest ?? false;
  if (!username && !guest) {
    return { field: 'username', message: 'give a username, or guest "1" (spec 4.1 rule 2)' };
  }
  const reading = readLanguage(r.language);
  if ('problem' in reading) return { field: 'language', message: reading.problem };
  const language = reading.code;
  return {
    wikiagent: r.wikiagent,
    ...(username && { username }),
    guest,
    question: {
      text: r.question.text,
      askForMetadata: r.question.ask_for_metadata ?? false,
      usingRepeatingAnswers: r.question.using_repeating_answers ?? false,
      ...(r.question.extra_data !== undefined && { extraData: r.question.extra_data }),
    },
    forceSubscription: r.force_subscription,
    output: r.output,
    language,
  };
}

export const isProblem = (r: AnswerRequest | RequestProblem): r is RequestProblem => 'field' in r;
