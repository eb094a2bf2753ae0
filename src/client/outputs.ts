import type { Output } from '../model/request-fields.js';
import { parseAnswerResponse, type ParsedResponse } from './response.js';
import { parseTextReply, type TextKnowledge } from './text-reply.js';

/** What reading a reply needs besides its body: the output asked for, the question's language, the knowledge base. */
export interface ReplyReading {
  output: Output;
  /** The language the question was asked in (a text answer's entry is looked up in it first). */
  language: string;
  /** The knowledge base's entries by answer text, when it is known: a text answer's entry is recovered from it. */
  knowledge?: TextKnowledge;
}

/** The xml and html readers (htmlparser2), loaded by the first reply that needs them: a json run never loads them. */
let markup: typeof import('./markup.js') | undefined;

/** Makes the reader of `output` ready (loads htmlparser2 for xml and html, once); call before `readReply`. */
export async function readerFor(output: Output): Promise<void> {
  if ((output === 'xml' || output === 'html') && markup === undefined) markup = await import('./markup.js');
}

const markupReader = (): typeof import('./markup.js') => {
  if (markup === undefined) throw new Error('readReply: the xml and html readers are not loaded (await readerFor(output) first)');
  return markup;
};

/** One reader per output: the json hot path (fast-parse.ts), htmlparser2 for xml and html, paragraphs for text. */
const READERS: Record<Output, (body: string, r: ReplyReading) => ParsedResponse> = {
  json: (body) => parseAnswerResponse(body),
  xml: (body) => markupReader().parseXmlReply(body),
  html: (body) => markupReader().parseHtmlReply(body),
  text: (body, r) => parseTextReply(body, r.language, r.knowledge),
};

/** A 200 body read as the output it was asked in (its reader made ready by readerFor): the response of 2.3, or a protocol error's message. */
export const readReply = (body: string, reading: ReplyReading): ParsedResponse => READERS[reading.output](body, reading);

/** The most characters of a non-json reply a result keeps for its reader (its secrets masked first, then cut). */
export const MAX_KEPT_BODY_CHARS = 4096;
