import t from 'tap';
import { impersonationWarning } from '../src/oauth/impersonation.ts';

/**
 * The consent page's warning for names that imitate a well-known assistant: names are
 * compared after NFKC, without default-ignorable code points, as UTS #39 confusable skeletons.
 */
t.test('look-alike names of well-known assistants are recognised', async (t) => {
  const attacks: Array<[string, string]> = [
    ['Claude', 'Claude'],
    ['Cl\u200Baude', 'Claude'], // zero-width space
    ['C\u00ADl\u2060aude\uFE0F', 'Claude'], // soft hyphen, word joiner, variation selector
    ['\u0421laude', 'Claude'], // Cyrillic С
    ['Cl\u0430ud\u0435', 'Claude'], // Cyrillic а and е inside Latin (mixed script)
    ['CIaude', 'Claude'], // capital I for l
    ['\uFF23\uFF4C\uFF41\uFF55\uFF44\uFF45', 'Claude'], // fullwidth Ｃｌａｕｄｅ
    ['\u{1D402}\u{1D425}\u{1D41A}\u{1D42E}\u{1D41D}\u{1D41E} Desktop', 'Claude'], // mathematical bold
    ['Cl\u00E1ude for Work', 'Claude'], // accent
    ['Ch\u0430t GPT', 'ChatGPT'], // Cyrillic а and a space
    ['Gem\u0456n\u0456', 'Gemini'], // Cyrillic і
    ['\u0441\u043E\u0440\u0456l\u043Et', 'Copilot'], // Cyrillic с о р і о between Latin l and t
    ['0penAI helper', 'ChatGPT'], // digit zero for O
    ['OpenAI', 'ChatGPT'],
    ['CHATGPT', 'ChatGPT'],
  ];
  for (const [name, brand] of attacks) {
    const warning = impersonationWarning(name, undefined);
    t.match(warning, new RegExp(`may be impersonating ${brand}`), JSON.stringify(name));
    t.match(warning, `calls itself "${name}"`, 'the warning quotes the name as sent');
  }
});

t.test("the maker's own verified domain and harmless names get no warning", async (t) => {
  t.equal(impersonationWarning('Cl\u200Baude', 'claude.ai'), undefined);
  t.match(impersonationWarning('\u0421laude', 'evil.example'), /its domain evil\.example does not belong to Anthropic/);
  for (const name of [
    'Acme Books Assistant',
    'Cloud Accounting Sync',
    'Ledger Helper',
    'Buchhaltung Pro',
    'Fakturierung für KMU',
    'Счетовод',
    'Zähler 2000',
  ]) {
    t.equal(impersonationWarning(name, undefined), undefined, name);
  }
});
