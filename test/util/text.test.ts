/** Text set on one line, as every served Markdown and text document sets the facts' words. */
import { describe, expect, it } from 'vitest';
import { inline } from '../../src/util/text.ts';

describe('inline', () => {
  it('makes every run of white space one space and trims both ends', () => {
    expect(inline('  Lumen\n\tGalleries  \r\n  of  light ')).toBe('Lumen Galleries of light');
    expect(inline('one')).toBe('one');
    expect(inline(' \n ')).toBe('');
  });
});
