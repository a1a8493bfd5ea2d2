/**
 * @module The content signal (contentsignals.org): what robots.txt's `Content-Signal` line and the
 * `Content-Usage` header say the content may be used for. One rule for every way in (CONTENT_SIGNAL,
 * `createHandler`'s `contentSignal`): comma-separated signals, each known and `=yes` or `=no`, none
 * twice; served normalised (lower case, `, ` between signals). Each caller passes the name its user wrote.
 */
import { invalidConfiguration, settingLine } from '../util/startup-error.ts';
import { commaItems } from '../util/comma-list.ts';

/** What robots.txt tells crawlers they may do with the content, unless configured. */
export const CONTENT_SIGNAL_DEFAULT = 'search=yes, ai-input=yes';

/** The signals a `Content-Signal` line may give, each `yes` or `no`. */
const CONTENT_SIGNALS = ['search', 'ai-input', 'ai-train'];

const signalsOf = (text: string) => commaItems(text.toLowerCase());

/** What is wrong with `text` as a content signal, in words every way in shares; undefined when nothing is. */
export function contentSignalProblem(text: string): string | undefined {
  const items = signalsOf(text);
  if (items.length === 0 || !items.every((item) => /^[a-z-]+=(yes|no)$/.test(item) && CONTENT_SIGNALS.includes(item.split('=')[0]!))) {
    return `must be comma-separated signals (${CONTENT_SIGNALS.join(', ')}), each =yes or =no, such as "search=yes, ai-input=yes, ai-train=no"`;
  }
  if (new Set(items.map((item) => item.split('=')[0])).size !== items.length) return 'names a signal twice';
  return undefined;
}

/** The signal as served: lower case, one `, ` between signals. */
export const normalisedContentSignal = (text: string): string => signalsOf(text).join(', ');

/** The content signal `text` gives, checked and normalised; a StartupError naming `name` when refused. */
export function checkContentSignal(text: string, name = 'contentSignal'): string {
  const problem = typeof text === 'string' ? contentSignalProblem(text) : 'must be a string such as "search=yes, ai-input=yes"';
  if (problem) throw invalidConfiguration(settingLine(name, text, problem));
  return normalisedContentSignal(text);
}
