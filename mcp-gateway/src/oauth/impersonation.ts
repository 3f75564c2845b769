/**
 * Names of well-known assistants and the domains that belong to their makers. A client
 * whose name suggests one of them but whose (verified) domain is not the maker's gets a
 * prominent warning on the consent page.
 */
import { nameLookalikeKeys, wordLookalikeKey } from './normalize.ts';

interface Brand {
  /** names that suggest the brand anywhere in the client name */
  words: string[];
  /** names that suggest it only at the start of a word ("gpt" but not "Egypt") */
  wordStarts?: string[];
  label: string;
  maker: string;
  domains: string[];
}

const BRANDS: Brand[] = [
  {
    words: ['claude', 'anthropic'],
    label: 'Claude',
    maker: 'Anthropic',
    domains: ['claude.ai', 'claude.com', 'anthropic.com'],
  },
  {
    words: ['chatgpt', 'openai'],
    wordStarts: ['gpt'],
    label: 'ChatGPT',
    maker: 'OpenAI',
    domains: ['openai.com', 'chatgpt.com'],
  },
  {
    words: ['copilot'],
    label: 'Copilot',
    maker: 'Microsoft / GitHub',
    domains: ['microsoft.com', 'github.com', 'githubcopilot.com', 'office.com', 'live.com', 'cloud.microsoft'],
  },
  { words: ['gemini', 'bard'], label: 'Gemini', maker: 'Google', domains: ['google.com'] },
  { words: ['cursor'], label: 'Cursor', maker: 'Anysphere', domains: ['cursor.com', 'cursor.sh', 'anysphere.co'] },
  { words: ['perplexity'], label: 'Perplexity', maker: 'Perplexity', domains: ['perplexity.ai'] },
  { words: ['mistral', 'lechat'], label: 'Le Chat', maker: 'Mistral AI', domains: ['mistral.ai'] },
];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Each brand's words are compared as look-alike keys too, so "claude" and "Сlaude" meet in
 * the same key. A word start is the start of the name or after anything but a Latin letter
 * (separators are already gone from the key, so "Chat GPT" reaches the brand through "chatgpt").
 */
const MATCHERS = BRANDS.map((brand) => {
  const anywhere = brand.words.map((w) => escapeRegExp(wordLookalikeKey(w)));
  const starts = (brand.wordStarts ?? []).map((w) => `(?:^|[^a-z])${escapeRegExp(wordLookalikeKey(w))}`);
  return { brand, pattern: new RegExp([...anywhere, ...starts].join('|'), 'u') };
});

function belongsTo(host: string, domains: string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return domains.some((d) => h === d || h.endsWith(`.${d}`));
}

/** The warning text, or undefined when the name does not suggest a well-known assistant on a foreign domain. */
export function impersonationWarning(clientName: string, verifiedHost: string | undefined): string | undefined {
  const keys = nameLookalikeKeys(clientName);
  for (const { brand: b, pattern } of MATCHERS) {
    if (!keys.some((key) => pattern.test(key))) continue;
    if (verifiedHost && belongsTo(verifiedHost, b.domains)) return undefined;
    const where = verifiedHost
      ? `its domain ${verifiedHost} does not belong to ${b.maker}`
      : `it has no verified domain of ${b.maker}`;
    return (
      `This app calls itself "${clientName}", which suggests ${b.label}, but ${where}. It may be impersonating ` +
      `${b.label}. Only continue if you are sure you started this connection yourself.`
    );
  }
  return undefined;
}
