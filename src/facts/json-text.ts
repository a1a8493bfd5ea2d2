/**
 * @module JSON text to a value, or the line and column of its first syntax error on every runtime
 * (Bun's JSON.parse names no position). JSON.parse builds the value; jsonc-parser, in strict JSON
 * mode, is asked where the text went wrong only when JSON.parse refuses it.
 */
import { parse as scan, printParseErrorCode, type ParseError } from 'jsonc-parser';

export type JsonText = { ok: true; value: unknown } | { ok: false; line: number; column: number; reason: string };

// By jsonc-parser's error code names (its enum is a `const enum`, which isolated modules cannot read).
const REASONS: Record<string, string> = {
  PropertyNameExpected: 'expected a member name in double quotes (a comma before "}" is not allowed)',
  ValueExpected: 'expected a value (a string, number, object, array, true, false or null)',
  ColonExpected: 'expected ":" after the member name',
  CommaExpected: 'expected "," between two entries',
  CloseBraceExpected: 'expected "}" to close the object',
  CloseBracketExpected: 'expected "]" to close the array',
  EndOfFileExpected: 'expected the end of the file after the top-level value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'comments are not allowed in JSON',
  UnexpectedEndOfString: 'a string is not closed on its line',
  InvalidCharacter: 'a control character (such as a tab or line break) must be escaped inside a string',
  InvalidEscapeCharacter: 'invalid escape sequence in a string',
  InvalidUnicode: 'invalid \\u escape in a string',
  InvalidNumberFormat: 'invalid number',
  UnexpectedEndOfNumber: 'invalid number',
};

/** Parses JSON text; a UTF-8 byte order mark at the start is not part of the JSON and is skipped. */
export function parseJsonText(text: string): JsonText {
  const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(json) };
  } catch (error) {
    const errors: ParseError[] = [];
    scan(json, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    // The two parsers disagreeing would be a bug in one of them: the runtime's own message is all there is then.
    if (!first) return { ok: false, line: 0, column: 0, reason: (error as Error).message };
    const before = json.slice(0, first.offset);
    const line = before.split('\n').length;
    const column = first.offset - before.lastIndexOf('\n');
    return { ok: false, line, column, reason: reasonOf(first, json) };
  }
}

function reasonOf({ error, offset, length }: ParseError, json: string): string {
  const code = printParseErrorCode(error);
  if (code === 'InvalidSymbol') return `unexpected ${JSON.stringify(json.slice(offset, offset + Math.max(length, 1)))}`;
  return REASONS[code] ?? code;
}
