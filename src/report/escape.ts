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
