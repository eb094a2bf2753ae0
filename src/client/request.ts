import { z } from 'zod';
import { ConfigError } from '../errors.js';
import type { Question } from '../model/question.js';

export const OUTPUTS = ['json', 'xml', 'html', 'text'] as const;
export type Output = (typeof OUTPUTS)[number];

/** How every question of a run is asked; a dataset row may override language, username and guest. */
export interface RequestSettings {
  /** Agent id issued by the service operator (`wikiagent`). */
  agent: string;
  /** @default 'en' */
  language: string;
  username?: string;
  /** Ask as a guest. @default true */
  guest: boolean;
  /** @default false */
  forceSubscription: boolean;
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
    question: z.object({ text: z.string().min(1), extra_data: z.string().optional() }),
    force_subscription: flag,
    output: z.enum(OUTPUTS),
    language: z.string().regex(/^[a-z]{2}$/, 'expected an ISO 639-1 code such as en'),
  })
  .refine((b) => b.username !== undefined || b.guest === '1', {
    message: 'neither a username nor guest access is given: set --username NAME or --guest (per row: username or guest=1)',
    path: ['username'],
  });

export type AnswerRequest = z.infer<typeof AnswerRequestSchema>;

/** Builds and checks the body for one question; a bad setting is a ConfigError naming the question. */
/** The body for one question, as sent; `checkRequestBody` has vetted the run's questions before the first send. */
export function requestBody(question: Question, settings: RequestSettings): AnswerRequest {
  const username = question.username ?? settings.username;
  const guest = question.guest ?? settings.guest;
  return {
    wikiagent: settings.agent,
    ...(username !== undefined ? { username } : {}),
    ...(guest ? { guest: '1' as const } : {}),
    question: { text: question.question, ...(question.extraData !== undefined ? { extra_data: question.extraData } : {}) },
    force_subscription: settings.forceSubscription ? ('1' as const) : ('0' as const),
    output: settings.output,
    language: question.language ?? settings.language,
  };
}

/** Builds and checks the body for one question; a bad setting is a ConfigError naming the question. */
export function buildRequestBody(question: Question, settings: RequestSettings): AnswerRequest {
  const checked = AnswerRequestSchema.safeParse(requestBody(question, settings));
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new ConfigError(`question "${question.id}" (line ${question.line}): ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return checked.data;
}
