/**
 * @module What looks like a person's contact data in a text: an e-mail address or a phone number. The
 * facts are served to anyone, so the checks refuse both in free text and in URL queries; the product's
 * own public address has its one field, `product.contact.email`. The rules are simple and written down
 * (docs/facts.md), so a product team can tell what is refused.
 */

/** `name@domain.tld`: a local part, an `@`, then a domain with at least one dot and a top-level name of letters. */
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;

/** A run of digits that may hold spaces, dots, hyphens and parentheses between them, and may start with `+`. */
const DIGIT_RUN = /\+?\(?\d[\d ().-]*\d\)?/g;

/** Written numbers that are not phone numbers: dates, year ranges and thousands written with separators. */
const NOT_A_PHONE = [
  /^\d{4}[-./]\d{1,2}[-./]\d{1,2}$/, // 2026-11-02
  /^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$/, // 02.11.2026
  /^\d{4} ?- ?\d{4}$/, // 2019-2026
  /^\d{1,3}(?:[ .]\d{3})+$/, // 1 000 000, 1.000.000
];

/** The first e-mail address in the text, if any. */
export const emailIn = (text: string): string | undefined => EMAIL.exec(text)?.[0];

/**
 * The first phone number in the text, if any: 7 to 15 digits (E.164 allows 15) written with a leading
 * `+` or with separators between groups (`+44 20 7946 0958`, `(555) 010-9999`, `555.010.9999`), or 10 to
 * 15 digits written together (not in a URL's query, where such a run is more often an id or a time:
 * `together: false`). Dates, year ranges and thousands are not phone numbers.
 */
export function phoneIn(text: string, { together = true }: { together?: boolean } = {}): string | undefined {
  for (const [match] of text.matchAll(DIGIT_RUN)) {
    let written = match.trim();
    // A parenthesis that the run does not close or open belongs to the sentence around it.
    if (written.startsWith('(') && !written.includes(')')) written = written.slice(1);
    if (written.endsWith(')') && !written.includes('(')) written = written.slice(0, -1);
    const digits = written.replace(/\D/g, '').length;
    if (digits < 7 || digits > 15 || NOT_A_PHONE.some((pattern) => pattern.test(written))) continue;
    if (written.startsWith('+') || /\d[ ().-]+\d/.test(written) || (together && digits >= 10)) return written;
  }
  return undefined;
}
