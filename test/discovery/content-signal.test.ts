/**
 * The content signal's one rule (src/discovery/content-signal.ts), from the environment (CONTENT_SIGNAL)
 * and from createHandler (`contentSignal`) in the same words; what is accepted reaches robots.txt and
 * the Content-Usage header normalised, whichever way it came in.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { checkContentSignal, contentSignalProblem, CONTENT_SIGNAL_DEFAULT } from '../../src/discovery/content-signal.ts';
import { loadConfig } from '../../src/startup/config.ts';
import { closeHandlers, get, makeHandler } from '../support/handler.ts';
import { environmentRefusal, optionRefusal, problemOf } from '../support/refusals.ts';

afterEach(closeHandlers);

describe('the content signal', () => {
  it.each([
    ['search=maybe', /each =yes or =no/],
    ['ai_train=no', /must be comma-separated signals \(search, ai-input, ai-train\)/],
    ['search=yes, search=no', /^names a signal twice$/],
    [',', /must be comma-separated signals/],
    ['search=yes\nX-Injected: 1', /must be comma-separated signals/],
  ])('refuses %j from the environment and from createHandler in the same words', async (value, words) => {
    const fromEnvironment = problemOf(environmentRefusal({ CONTENT_SIGNAL: value }), 'CONTENT_SIGNAL');
    const fromOptions = problemOf(await optionRefusal({ contentSignal: value }), 'contentSignal');
    expect(fromEnvironment).toMatch(words);
    expect(fromOptions).toBe(fromEnvironment);
    expect(contentSignalProblem(value)).toBe(fromEnvironment);
  });

  it('serves what it accepts normalised, from the environment and from createHandler alike', async () => {
    const given = ' Search=YES,ai-train=no ';
    expect(loadConfig({ CONTENT_SIGNAL: given }).contentSignal).toBe('search=yes, ai-train=no');
    expect(checkContentSignal(given)).toBe('search=yes, ai-train=no');
    const handler = await makeHandler({ contentSignal: given });
    const robots = await handler(get('/robots.txt'));
    const text = await robots.text();
    expect(text).toMatch(/^Content-Signal: search=yes, ai-train=no$/m);
    expect(robots.headers.get('content-usage')).toBe('search=y, train-ai=n');
  });

  it('defaults to search and AI input allowed', async () => {
    expect(loadConfig({}).contentSignal).toBe(CONTENT_SIGNAL_DEFAULT);
    const handler = await makeHandler();
    const text = await (await handler(get('/robots.txt'))).text();
    expect(text).toMatch(/^Content-Signal: search=yes, ai-input=yes$/m);
  });
});
