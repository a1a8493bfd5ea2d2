/**
 * JSON text to a value, or where and why it is not JSON: the line and column (both from 1) of the
 * first syntax error and a reason a person can act on, the same on every runtime. A UTF-8 byte
 * order mark at the start is accepted; everything JSON.parse refuses is refused, and nothing else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonText } from '../../src/facts/json-text.ts';

describe('parseJsonText', () => {
  it('gives the value JSON.parse gives', () => {
    const text = '{\n  "name": "Studio",\n  "tags": ["a", "b"],\n  "n": -1.5e3,\n  "ok": true,\n  "none": null\n}\n';
    expect(parseJsonText(text)).toEqual({ ok: true, value: JSON.parse(text) });
    expect(parseJsonText('"\\u00e9\\n"')).toEqual({ ok: true, value: 'é\n' });
  });

  it('skips one UTF-8 byte order mark at the start, and only there', () => {
    expect(parseJsonText('\ufeff{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonText('\ufeff\ufeff{}')).toMatchObject({ ok: false, line: 1, column: 1 });
    expect(parseJsonText('{"a":1}\ufeff')).toMatchObject({ ok: false, line: 1, column: 8 });
  });

  it('keeps a member named __proto__ as data', () => {
    const parsed = parseJsonText('{"__proto__": {"polluted": true}}');
    expect(parsed.ok).toBe(true);
    expect(Object.keys((parsed as { value: object }).value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  // Each mistake a person writing a facts file makes, where it is, and what the reason says.
  it.each([
    ['an empty file', '', 1, 1, /^expected a value/],
    ['only whitespace', '  \n  ', 2, 3, /^expected a value/],
    [
      'a trailing comma in an object',
      '{\n  "a": 1,\n}',
      3,
      1,
      'expected a member name in double quotes (a comma before "}" is not allowed)',
    ],
    ['a trailing comma in an array', '[1,]', 1, 4, /^expected a value/],
    ['a member name without quotes', '{a: 1}', 1, 2, 'unexpected "a"'],
    ['single quotes', "{'a': 1}", 1, 2, `unexpected "'a'"`],
    ['a missing colon', '{"a" 1}', 1, 6, 'expected ":" after the member name'],
    ['a missing comma', '{"a": 1\n "b": 2}', 2, 2, 'expected "," between two entries'],
    ['an object not closed', '{"a": 1', 1, 8, 'expected "}" to close the object'],
    ['an array not closed', '[1, 2', 1, 6, 'expected "]" to close the array'],
    ['text after the value', '{"a": 1}\n\n  ]', 3, 3, 'expected the end of the file after the top-level value'],
    ['a line comment', '{\n  // reviewed\n  "a": 1\n}', 2, 3, 'comments are not allowed in JSON'],
    ['a block comment', '/* facts */ {}', 1, 1, 'comments are not allowed in JSON'],
    ['a string not closed', '{"a": "b', 1, 7, 'a string is not closed on its line'],
    ['a raw tab in a string', '{"a": "x\ty"}', 1, 7, /^a control character/],
    ['an invalid escape', '{"a": "\\x"}', 1, 7, 'invalid escape sequence in a string'],
    ['a short \\u escape', '{"a": "\\u12"}', 1, 7, 'invalid \\u escape in a string'],
    ['a number ending in a point', '{"a": 1.}', 1, 7, 'invalid number'],
    ['an exponent without digits', '[1e]', 1, 2, 'invalid number'],
    ['NaN', '{"a": NaN}', 1, 7, 'unexpected "NaN"'],
    ['a hexadecimal number', '[0x10]', 1, 3, 'unexpected "x10"'],
    ['a misspelt literal', '[tru]', 1, 2, 'unexpected "tru"'],
  ])('refuses %s, naming the line, the column and what is wrong', (_, text, line, column, reason) => {
    const parsed = parseJsonText(text);
    expect(parsed).toMatchObject({ ok: false, line, column });
    expect((parsed as { reason: string }).reason).toMatch(reason);
  });

  it('counts lines the same with CRLF line ends, and columns after the byte order mark', () => {
    expect(parseJsonText('{\r\n  "a": 1,\r\n}')).toMatchObject({ ok: false, line: 3, column: 1 });
    expect(parseJsonText('\ufeff{\n  "a" 1\n}')).toMatchObject({ ok: false, line: 2, column: 7 });
  });

  it('agrees with JSON.parse on any text, and points inside the text when it refuses', () => {
    const pieces = fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      ':',
      ',',
      '"',
      'a',
      '1',
      '-',
      '.',
      'e',
      '\\',
      'u',
      ' ',
      '\n',
      '\t',
      'true',
      'null',
      '/',
      '*',
    );
    const text = fc.oneof(
      fc.array(pieces, { maxLength: 12 }).map((parts) => parts.join('')),
      fc.json(),
      fc.string({ maxLength: 20 }),
    );
    fc.assert(
      fc.property(text, (text) => {
        let value: unknown;
        let accepted = true;
        try {
          value = JSON.parse(text);
        } catch {
          accepted = false;
        }
        const parsed = parseJsonText(text);
        if (accepted) {
          expect(parsed).toEqual({ ok: true, value });
          return;
        }
        expect(parsed.ok).toBe(false);
        const { line, column, reason } = parsed as { line: number; column: number; reason: string };
        const lines = text.split('\n');
        expect(line).toBeGreaterThanOrEqual(1);
        expect(line).toBeLessThanOrEqual(lines.length);
        expect(column).toBeGreaterThanOrEqual(1);
        expect(column).toBeLessThanOrEqual(lines[line - 1]!.length + 1);
        expect(reason).toMatch(/\S/);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads any JSON value back, however it is indented', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(parseJsonText(text)).toEqual({ ok: true, value: JSON.parse(text) });
      }),
    );
  });
});
