const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export const escapeHtml = (text: unknown): string => String(text ?? '').replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/**
 * JSON safe to embed inside `<script type="application/json">`: no `</script>`, `<!--` or
 * U+2028/U+2029 can end or break the script element.
 */
export const jsonForScript = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * Data text that a GitHub comment or job summary must not turn into a notification or a link: a zero-width
 * space after every `@` (no @mention, no @org/team) and between `#` or `GH-` and a digit (no #123 issue
 * reference). It renders the same. Apply it to the text before escaping it for Markdown.
 */
export const neutralizeMentions = (text: string): string => text.replace(/@(?!\u200b)/g, '@\u200b').replace(/(#|\bGH-)(?=\d)/gi, '$1\u200b');
