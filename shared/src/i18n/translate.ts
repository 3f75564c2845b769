/**
 * One message catalogue per language (messages/*.ts), looked up by key with `{name}`
 * placeholders. A key missing in a language is a type error and a failing test, so the
 * fallback to English below only covers a key read at run time from outside the types.
 */
import { de } from './messages/de.ts';
import { en, type MessageKey, type Messages } from './messages/en.ts';
import { fr } from './messages/fr.ts';
import { it } from './messages/it.ts';
import type { Language } from './languages.ts';

export const CATALOGUES: Readonly<Record<Language, Messages>> = { de, fr, it, en };

export type { MessageKey, Messages };

/** The text of `key` in `language`, with each `{name}` replaced by `values[name]`. */
export function translate(
  language: Language,
  key: MessageKey,
  values: Readonly<Record<string, string | number>> = {},
): string {
  const template = CATALOGUES[language][key] ?? en[key];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** A translator bound to one language, for a page or a document that speaks only it. */
export function translatorFor(
  language: Language,
): (key: MessageKey, values?: Record<string, string | number>) => string {
  return (key, values) => translate(language, key, values);
}
