import unhomoglyph from 'unhomoglyph';

/** Emails are compared trimmed and lower-cased, as the ledger stores them. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * UTS #39 skeleton: NFD, every character replaced by its prototype from Unicode's
 * confusables.txt (the table ships in `unhomoglyph`), NFD again. Two strings that look alike
 * ("Сlaude" with a Cyrillic С, "CIaude" with a capital I) have the same skeleton.
 */
export function confusableSkeleton(s: string): string {
  return unhomoglyph(s.normalize('NFD')).normalize('NFD');
}

const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
const MARKS = /\p{M}/gu;
const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]/gu;

/**
 * How a name looks, for comparing names: NFKC (fullwidth and mathematical letters become
 * plain ones), without default-ignorable code points (zero-width space, soft hyphen, joiners,
 * variation selectors: invisible, so they must not split a word), as a case-folded confusable
 * skeleton without accents, spaces and punctuation ("Chat GPT" → "chatgpt").
 *
 * Skeletons are case-sensitive (a capital I looks like a small l, a small i does not), so
 * there are two keys: one lower-cased before the skeleton ("OpenAI" → "openai") and one
 * after it ("CIaude" → "claude"). A name imitates a word when
 * either key contains the word's key.
 */
export function nameLookalikeKeys(name: string): string[] {
  const visible = name.normalize('NFKC').replace(DEFAULT_IGNORABLE, '');
  // a prototype can be upper-case ("0" → "O"), so lower-case and skeletonise once more
  const fold = (s: string) => confusableSkeleton(confusableSkeleton(s).toLowerCase());
  const keys = [fold(visible.toLowerCase()), fold(visible)].map((s) =>
    s.replace(MARKS, '').replace(NOT_LETTER_OR_DIGIT, ''),
  );
  return [...new Set(keys)];
}

/** The key of a lower-case word the names are compared with. */
export function wordLookalikeKey(word: string): string {
  return nameLookalikeKeys(word.toLowerCase())[0]!;
}
