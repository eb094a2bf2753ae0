import { Parser } from 'htmlparser2';
import { setOwn } from '../util/own.js';
import { checkAnswerResponse, excerpt, MAX_ANSWERS_PER_REPLY, tooManyAnswers, type ParsedResponse } from './response.js';

// The replies of output=xml and output=html, read into the shape of the json reply (2.3: post_processed_answer and
// answers, each item's values as strings, as the public sample writes them) and checked by the same schema. The
// spec shows neither format: these readers take the embedded engine's renderings (docs/spec-coverage.md) and the
// variations a service may plausibly use, with one tolerant parser (htmlparser2) that never throws and keeps no tree:
// a stack of names, in time linear in the body, whatever its nesting.

/** A field name as the spec writes it: `sequence-number`, `Sequence_Number` → `sequence_number`. */
const fieldName = (name: string): string => name.toLowerCase().replace(/-/g, '_');

/** Outside a container, the elements an xml reply may name its items. */
const XML_ITEMS = new Set(['answer_item', 'item']);

/** What a reader builds: the response in JSON's shape (values as strings), or why the body is no such reply. */
type Read = { json: Record<string, unknown> } | { problem: string };

const looksLikeJson = (body: string): boolean => /^\s*[[{]/.test(body);

function jsonInstead(body: string, output: string): string | undefined {
  if (!looksLikeJson(body)) return undefined;
  try {
    JSON.parse(body);
  } catch {
    return undefined;
  }
  return `the body is JSON, not the ${output} that was asked for (does the service ignore "output"?): ${JSON.stringify(excerpt(body))}`;
}

/** An answer item being read: its fields by name, as strings; `own` the text directly inside it. */
interface Item {
  fields: Record<string, unknown>;
  own: string;
}

function finishItem(item: Item): Record<string, unknown> {
  const own = item.own.replace(/\s+/g, ' ').trim();
  if (!Object.hasOwn(item.fields, 'answer') && own !== '') item.fields['answer'] = own;
  return item.fields;
}

function result(body: string, read: Read): ParsedResponse {
  if ('problem' in read) return { ok: false, message: read.problem };
  return checkAnswerResponse(read.json, body);
}

/**
 * An output=xml reply: any root holding `<answers>`, whose child elements are the items (`<answer_item>` in the
 * embedded engine); without `<answers>`, the `<answer_item>` or `<item>` elements. An item's fields are its child
 * elements named as in 2.4 (`<sequence_number>`, or `<sequence-number>`) or its attributes; a field with child
 * elements (`<tags><tag>a</tag><tag>b</tag></tags>`) joins their texts with `|`; text directly in the item is its
 * `answer` when it has no such child. `<post_processed_answer>` outside the items. Values are trimmed; CDATA and
 * entities are read as text.
 */
export function parseXmlReply(body: string): ParsedResponse {
  return result(body, jsonInstead(body, 'xml') === undefined ? readXml(body) : { problem: jsonInstead(body, 'xml')! });
}

function readXml(body: string): Read {
  let depth = 0;
  let elements = 0;
  let answersAt = -1; // depth of the <answers> container being read
  let answersSeen = false;
  let itemAt = -1;
  let item: Item | undefined;
  let field: { name: string; text: string; parts: string[] } | undefined;
  let part: string | undefined;
  let ppaAt = -1;
  let ppa: string | undefined;
  let ppaText = '';
  const items: Record<string, unknown>[] = [];
  let deepest = false;
  const parser: Parser = new Parser(
    {
      onopentag(raw, attributes) {
        depth++;
        elements++;
        if (depth > MAX_MARKUP_DEPTH) {
          deepest = true;
          return parser.pause(); // read no further
        }
        const name = fieldName(raw);
        if (item === undefined) {
          const isItem = name !== 'post_processed_answer' && (answersAt >= 0 ? depth === answersAt + 1 : !answersSeen && XML_ITEMS.has(name));
          if (isItem) {
            item = { fields: {}, own: '' };
            itemAt = depth;
            for (const [key, value] of Object.entries(attributes)) setOwn(item.fields, fieldName(key), value.trim());
          } else if (name === 'answers' && !answersSeen && ppaAt < 0) {
            answersAt = depth;
            answersSeen = true;
          } else if (name === 'post_processed_answer' && ppaAt < 0) {
            ppaAt = depth;
            ppaText = '';
          }
          return;
        }
        if (depth === itemAt + 1) field = { name, text: '', parts: [] };
        else if (depth === itemAt + 2) part = '';
      },
      ontext(text) {
        if (item !== undefined) {
          if (depth === itemAt) item.own += text;
          else if (depth === itemAt + 1 && field) field.text += text;
          else if (part !== undefined) part += text;
        } else if (ppaAt >= 0) ppaText += text;
      },
      onclosetag() {
        if (item !== undefined) {
          if (depth === itemAt + 2 && field && part !== undefined) {
            if (part.trim() !== '') field.parts.push(part.trim());
            part = undefined;
          } else if (depth === itemAt + 1 && field) {
            setOwn(item.fields, field.name, field.parts.length > 0 ? field.parts.join('|') : field.text.trim());
            field = undefined;
          } else if (depth === itemAt) {
            items.push(finishItem(item));
            item = undefined;
            if (items.length > MAX_ANSWERS_PER_REPLY) parser.pause(); // read no further
          }
        } else if (depth === answersAt) answersAt = -1;
        else if (depth === ppaAt) {
          ppa = ppaText.trim();
          ppaAt = -1;
        }
        depth--;
      },
    },
    { xmlMode: true },
  );
  parser.end(body);
  if (deepest) return tooDeep(body);
  if (items.length > MAX_ANSWERS_PER_REPLY) return { problem: tooManyAnswers(body) };
  if (elements === 0) return { problem: `the body is not XML: ${JSON.stringify(excerpt(body))}` };
  if (!answersSeen && items.length === 0) {
    return { problem: `no <answers> element (expected <answers><answer_item><answer>…</answer>…</answer_item></answers>): ${JSON.stringify(excerpt(body))}` };
  }
  return { json: { ...(ppa !== undefined ? { post_processed_answer: ppa } : {}), answers: items } };
}

const classes = (attributes: Record<string, string>): string[] => (attributes['class'] ?? '').split(/\s+/).filter((c) => c !== '').map(fieldName);

/** The fields of an answer item (2.4) besides its text: an element of one of these classes inside an html item holds it. */
const FIELD_CLASSES = new Set([
  'theme', 'context', 'snippet', 'sequence_number', 'answer_score', 'tags', 'label', 'category', 'sub_category', 'answer_language',
  'is_agent_answer', 'is_dummy_answer', 'is_dummy_floor_answer', 'is_suggestion_answer', 'is_international_question',
  'is_dialog_in_progress', 'is_dialogue_answer', 'delay',
]);

/** In an html item, the classes that name its answer text. */
const ANSWER_TEXT = new Set(['answer', 'answer_text']);
const HTML_ITEM = new Set(['answer', 'answer_item']);
/** Elements that part the text around them as a browser shows it (a line, a block). */
const BREAKS = new Set(['br', 'p', 'div', 'li', 'tr', 'td', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'dd', 'dt']);

/**
 * The deepest a markup reply may nest its elements: deeper, it is a protocol error, read no further. A reply nests a
 * few levels (a page around a list, a dozen or two); the bound keeps a hostile body's cost linear (htmlparser2
 * keeps its stack with unshift/shift, quadratic in the depth: 40,000 levels took 1.5 s).
 */
export const MAX_MARKUP_DEPTH = 256;

const tooDeep = (body: string): { problem: string } => ({
  problem: `elements nested more than ${MAX_MARKUP_DEPTH} deep (a reply is read up to ${MAX_MARKUP_DEPTH} levels): ${JSON.stringify(excerpt(body))}`,
});

/** Elements whose text is no content. */
const NOT_CONTENT = new Set(['script', 'style', 'template', 'head', 'title']);

/**
 * An output=html reply: each element of class `answer` is an item (`<li class="answer">` in the embedded engine), its
 * fields in `data-*` attributes (`data-sequence-number`, or `data-sequence_number`), or in elements inside it whose
 * class names a field (`<span class="label">`); its text (whitespace collapsed, as a browser shows it) is its
 * `answer`, unless an element of class `answer-text` holds it. `class="post-processed-answer"` outside the items holds
 * the post-processed answer. A page without an element of class `answers` or `answer` is no reply. Script and style
 * are not text.
 */
export function parseHtmlReply(body: string): ParsedResponse {
  return result(body, jsonInstead(body, 'html') === undefined ? readHtml(body) : { problem: jsonInstead(body, 'html')! });
}

function readHtml(body: string): Read {
  let depth = 0;
  let elements = 0;
  let answersSeen = false;
  let skipAt = -1; // inside script or style
  let itemAt = -1;
  let item: Item | undefined;
  let field: { name: string; at: number; text: string } | undefined;
  let ppaAt = -1;
  let ppa: string | undefined;
  let ppaText = '';
  const items: Record<string, unknown>[] = [];
  let deepest = false;
  const parser: Parser = new Parser(
    {
      onopentag(name, attributes) {
        depth++;
        elements++;
        if (depth > MAX_MARKUP_DEPTH) {
          deepest = true;
          return parser.pause(); // read no further
        }
        if (skipAt >= 0) return;
        if (NOT_CONTENT.has(name)) {
          skipAt = depth;
          return;
        }
        const names = classes(attributes);
        if (item === undefined) {
          if (names.some((c) => HTML_ITEM.has(c))) {
            item = { fields: {}, own: '' };
            itemAt = depth;
            for (const [key, value] of Object.entries(attributes)) if (key.startsWith('data-')) setOwn(item.fields, fieldName(key.slice(5)), value.trim());
          } else if (names.includes('answers')) answersSeen = true;
          else if (names.includes('post_processed_answer') && ppaAt < 0) {
            ppaAt = depth;
            ppaText = '';
          }
          return;
        }
        if (BREAKS.has(name)) {
          if (field !== undefined) field.text += '\n';
          else item.own += '\n';
        }
        if (field !== undefined) return;
        const named = names.find((c) => ANSWER_TEXT.has(c) || FIELD_CLASSES.has(c));
        if (named !== undefined) field = { name: ANSWER_TEXT.has(named) ? 'answer' : named, at: depth, text: '' };
      },
      ontext(text) {
        if (skipAt >= 0) return;
        if (field !== undefined) field.text += text;
        else if (item !== undefined) item.own += text;
        else if (ppaAt >= 0) ppaText += text;
      },
      onclosetag(name) {
        if (item !== undefined && BREAKS.has(name)) {
          if (field !== undefined && depth > field.at) field.text += '\n';
          else if (field === undefined && depth > itemAt) item.own += '\n';
        }
        if (skipAt === depth) skipAt = -1;
        else if (field !== undefined && depth === field.at) {
          if (item && !Object.hasOwn(item.fields, field.name)) setOwn(item.fields, field.name, field.text.replace(/\s+/g, ' ').trim());
          field = undefined;
        } else if (item !== undefined && depth === itemAt) {
          items.push(finishItem(item));
          item = undefined;
          if (items.length > MAX_ANSWERS_PER_REPLY) parser.pause(); // read no further
        } else if (depth === ppaAt) {
          ppa = ppaText.replace(/\s+/g, ' ').trim();
          ppaAt = -1;
        }
        depth--;
      },
    },
    { decodeEntities: true },
  );
  parser.end(body);
  if (deepest) return tooDeep(body);
  if (items.length > MAX_ANSWERS_PER_REPLY) return { problem: tooManyAnswers(body) };
  if (elements === 0) return { problem: `the body is not HTML: ${JSON.stringify(excerpt(body))}` };
  if (!answersSeen && items.length === 0) {
    return { problem: `no element of class "answers" or "answer" (expected <ol class="answers"><li class="answer" data-sequence-number="…">…</li></ol>): ${JSON.stringify(excerpt(body))}` };
  }
  return { json: { ...(ppa !== undefined ? { post_processed_answer: ppa } : {}), answers: items } };
}

