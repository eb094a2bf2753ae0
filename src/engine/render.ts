import type { AnswerResponse } from './respond.js';
import type { Output } from './request.js';

/** A rendered body and its content type. Pure: (response, output) → text. */
export interface Rendered {
  contentType: string;
  body: string;
}

const xmlEscape = (s: string): string =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

function xml(r: AnswerResponse): string {
  const items = r.answers.map(
    (item) => `    <answer_item>\n${Object.entries(item).map(([k, v]) => `      <${k}>${xmlEscape(v)}</${k}>`).join('\n')}\n    </answer_item>`,
  );
  const post = r.post_processed_answer === undefined ? '' : `  <post_processed_answer>${xmlEscape(r.post_processed_answer)}</post_processed_answer>\n`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<response>\n${post}  <answers>\n${items.join('\n')}\n  </answers>\n</response>\n`;
}

function html(r: AnswerResponse): string {
  const items = r.answers.map((item) => {
    const { answer, ...fields } = item;
    const attrs = Object.entries(fields).map(([k, v]) => ` data-${k.replace(/_/g, '-')}="${xmlEscape(v)}"`).join('');
    return `<li class="answer"${attrs}>${xmlEscape(answer ?? '')}</li>`;
  });
  const post = r.post_processed_answer === undefined ? '' : `<p class="post-processed-answer">${xmlEscape(r.post_processed_answer)}</p>\n`;
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>answers</title></head><body>\n${post}<ol class="answers">\n${items.join('\n')}\n</ol>\n</body></html>\n`;
}

const oneLine = (s: string): string => s.replace(/\s*\r?\n\s*/g, ' ');

/**
 * Plain answer texts, best first, one a paragraph (line breaks inside an answer become spaces, so a blank line always
 * parts two answers); the post-processed answer, when there is one, first, as `post_processed_answer: …`. No scores,
 * no sequence numbers, no flags: a client recovers them from the knowledge base, if it has it.
 */
function text(r: AnswerResponse): string {
  const blocks = r.answers.map((item) => oneLine(item['answer'] ?? ''));
  if (r.post_processed_answer !== undefined) blocks.unshift(`post_processed_answer: ${oneLine(r.post_processed_answer)}`);
  return `${blocks.join('\n\n')}\n`;
}

/**
 * The body of each output (the spec shows only json's, 2.3; docs/spec-coverage.md shows each with an example). xml
 * and html carry every field of every answer item under its json name (elements; `data-*` attributes), text only
 * the answers' texts. Pure: (response, output) → text.
 */
export function render(response: AnswerResponse, output: Output): Rendered {
  switch (output) {
    case 'json':
      return { contentType: 'application/json; charset=utf-8', body: JSON.stringify(response) };
    case 'xml':
      return { contentType: 'application/xml; charset=utf-8', body: xml(response) };
    case 'html':
      return { contentType: 'text/html; charset=utf-8', body: html(response) };
    case 'text':
      return { contentType: 'text/plain; charset=utf-8', body: text(response) };
  }
}
