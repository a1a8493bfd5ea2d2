/** @module Text set on one line: every run of white space (line breaks included) one space, none at either end. */
export const inline = (text: string): string => text.replace(/\s+/g, ' ').trim();
