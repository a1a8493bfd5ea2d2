import { describe, expect, it } from 'vitest';
import { emailIn, phoneIn } from '../../src/facts/personal-data.ts';

describe('emailIn', () => {
  it.each([
    ['Write to jane@example.com.', 'jane@example.com'],
    ['first.last+tag@mail.studio.example.org', 'first.last+tag@mail.studio.example.org'],
  ])('finds the address in %j', (text, address) => expect(emailIn(text)).toBe(address));

  it.each(['Follow @lumen on social media', 'Lumen@Home is our brand', 'a@b'])('finds none in %j', (text) =>
    expect(emailIn(text)).toBeUndefined(),
  );
});

describe('phoneIn', () => {
  it.each([
    ['Call +44 20 7946 0958 today', '+44 20 7946 0958'],
    ['Hotline (555) 010-9999.', '(555) 010-9999'],
    ['555.010.9999', '555.010.9999'],
    ['555-0199 for help', '555-0199'],
    ['callback 5550109999', '5550109999'],
    ['+15550109999', '+15550109999'],
  ])('finds the number in %j', (text, number) => expect(phoneIn(text)).toBe(number));

  it('leaves digits written together to free text: in a URL query they are an id or a time', () => {
    expect(phoneIn('1700000000', { together: false })).toBeUndefined();
    expect(phoneIn('+15550109999', { together: false })).toBe('+15550109999');
  });

  it.each([
    'A 14-day trial',
    'Reviewed on 2026-11-02',
    'Since 02.11.2026',
    'Built 2019-2026',
    'Over 1 000 000 photos delivered',
    'Up to 1.000.000 downloads',
    'Icons of 512x512 pixels',
    'Plans from 9 to 99 per month',
    'Version 1.2.3',
    'Order 1234567',
  ])('finds none in %j', (text) => expect(phoneIn(text)).toBeUndefined());
});
