// Characters XML 1.0 forbids (C0 controls except tab/LF/CR, lone surrogates, U+FFFE/U+FFFF): a parser rejects the whole file.
const ILLEGAL_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text safe in XML 1.0 content and quoted attributes: illegal characters dropped, markup escaped. */
export const escapeXml = (text: unknown): string =>
  String(text ?? '').replace(ILLEGAL_XML, '').replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

/** An attribute value: also keeps newlines and tabs (which attribute normalization would turn into spaces). */
export const xmlAttr = (text: unknown): string => escapeXml(text).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
