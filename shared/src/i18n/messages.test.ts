import t from 'tap';
import { CATALOGUES } from './translate.ts';
import { LANGUAGES, languageFromAcceptLanguage } from './languages.ts';
import { displayAmount, formatDate, formatDateTime, formatIban } from './format.ts';
import { translate } from './translate.ts';

t.test('every language has every key of every other language, and no empty text', async (t) => {
  const all = new Set(LANGUAGES.flatMap((language) => Object.keys(CATALOGUES[language])));
  for (const language of LANGUAGES) {
    const own = CATALOGUES[language] as Record<string, string>;
    const missing = [...all].filter((key) => !(key in own));
    t.same(missing, [], `${language} lacks no key`);
    const empty = Object.keys(own).filter((key) => own[key]?.trim() === '');
    t.same(empty, [], `${language} has no empty text`);
  }
});

t.test('placeholders are the same in every language', async (t) => {
  const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const key of Object.keys(CATALOGUES.en) as (keyof typeof CATALOGUES.en)[]) {
    for (const language of LANGUAGES) {
      t.same(names(CATALOGUES[language][key]), names(CATALOGUES.en[key]), `${key} in ${language}`);
    }
  }
});

t.test('translate fills placeholders and speaks the language asked', async (t) => {
  t.equal(translate('de', 'document.invoice'), 'Rechnung');
  t.equal(translate('fr', 'document.paymentPart'), 'Section paiement');
  t.equal(translate('it', 'document.invoice'), 'Fattura');
});

t.test('Accept-Language picks the first of our languages by weight', async (t) => {
  t.equal(languageFromAcceptLanguage('fr-CH, fr;q=0.9, en;q=0.8'), 'fr');
  t.equal(languageFromAcceptLanguage('es, it;q=0.5, de;q=0.4'), 'it');
  t.equal(languageFromAcceptLanguage('en;q=0.2, de-CH;q=0.9'), 'de');
  t.equal(languageFromAcceptLanguage('ja'), 'de');
  t.equal(languageFromAcceptLanguage(undefined), 'de');
  t.equal(languageFromAcceptLanguage('fr;q=0'), 'de');
});

t.test('Swiss formats', async (t) => {
  t.equal(displayAmount('1234.5'), "1'234.50");
  t.equal(displayAmount('-1234567.05', 'CHF'), "CHF -1'234'567.05");
  t.equal(displayAmount('0.1'), '0.10');
  // beyond a double's 15-16 digits: formatted from the string, not a float
  t.equal(displayAmount('12345678901234567.89'), "12'345'678'901'234'567.89");
  t.equal(formatDate('2026-11-28'), '28.11.2026');
  t.equal(formatDateTime('2026-07-01T12:05:00Z'), '01.07.2026, 14:05', 'summer time in Zurich');
  t.equal(formatDateTime('2026-01-01T12:05:00Z'), '01.01.2026, 13:05', 'winter time in Zurich');
  t.equal(formatIban('ch9300762011623852957'), 'CH93 0076 2011 6238 5295 7');
});
