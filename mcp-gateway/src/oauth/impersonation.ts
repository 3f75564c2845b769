/**
 * Names of well-known assistants and the domains that belong to their makers. A client
 * whose name suggests one of them but whose (verified) domain is not the maker's gets a
 * prominent warning on the consent page.
 */
interface Brand {
  pattern: RegExp;
  label: string;
  maker: string;
  domains: string[];
}

const BRANDS: Brand[] = [
  { pattern: /claude|anthropic/, label: 'Claude', maker: 'Anthropic', domains: ['claude.ai', 'claude.com', 'anthropic.com'] },
  { pattern: /chatgpt|openai|(^|[^a-z])gpt/, label: 'ChatGPT', maker: 'OpenAI', domains: ['openai.com', 'chatgpt.com'] },
  { pattern: /copilot/, label: 'Copilot', maker: 'Microsoft / GitHub', domains: ['microsoft.com', 'github.com', 'githubcopilot.com', 'office.com', 'live.com', 'cloud.microsoft'] },
  { pattern: /gemini|bard/, label: 'Gemini', maker: 'Google', domains: ['google.com'] },
  { pattern: /cursor/, label: 'Cursor', maker: 'Anysphere', domains: ['cursor.com', 'cursor.sh', 'anysphere.co'] },
  { pattern: /perplexity/, label: 'Perplexity', maker: 'Perplexity', domains: ['perplexity.ai'] },
  { pattern: /mistral|lechat/, label: 'Le Chat', maker: 'Mistral AI', domains: ['mistral.ai'] },
];

function normalize(name: string): string {
  // NFKD folds look-alike compatibility characters; separators are dropped ("Chat GPT" → "chatgpt")
  return name.normalize('NFKD').toLowerCase().replace(/[\u0300-\u036f]/g, '').replace(/[\s._\-·]+/g, '');
}

function belongsTo(host: string, domains: string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return domains.some((d) => h === d || h.endsWith(`.${d}`));
}

/** The warning text, or undefined when the name does not suggest a well-known assistant on a foreign domain. */
export function impersonationWarning(clientName: string, verifiedHost: string | undefined): string | undefined {
  const n = normalize(clientName);
  for (const b of BRANDS) {
    if (!b.pattern.test(n)) continue;
    if (verifiedHost && belongsTo(verifiedHost, b.domains)) return undefined;
    const where = verifiedHost ? `its domain ${verifiedHost} does not belong to ${b.maker}` : `it has no verified domain of ${b.maker}`;
    return `This app calls itself "${clientName}", which suggests ${b.label}, but ${where}. It may be impersonating ${b.label}. Only continue if you are sure you started this connection yourself.`;
  }
  return undefined;
}
