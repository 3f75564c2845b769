/**
 * The four languages the product speaks: the Swiss national languages a company writes to
 * its customers in (German, French, Italian) and English. German is the default: a
 * company, a party or a person without a language reads German, as most Swiss businesses do.
 */
export const LANGUAGES = ['de', 'fr', 'it', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'de';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The first of our languages an `Accept-Language` header asks for, by its q-values
 * (RFC 9110 §12.5.4); `de-CH`, `fr-ch` and `it` all count by their primary tag. A header
 * that names none of ours gives the default.
 */
export function languageFromAcceptLanguage(header: string | undefined | null): Language {
  if (!header) return DEFAULT_LANGUAGE;
  const asked = header
    .split(',')
    .map((part, position) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { primary: tag.trim().toLowerCase().split('-')[0] ?? '', weight, position };
    })
    .filter((entry) => Number.isFinite(entry.weight) && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.position - b.position);
  return asked.map((entry) => entry.primary).find(isLanguage) ?? DEFAULT_LANGUAGE;
}
