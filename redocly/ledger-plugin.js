/**
 * Redocly lint rules of this project (redocly.yaml loads it; nothing is fetched).
 *
 * `ledger/no-ambiguous-paths` is Redocly's `no-ambiguous-paths` with the parameters' types:
 * two paths are ambiguous when one request path could match both, segment by segment (equal
 * words, or a parameter and a word it accepts, or two parameters). An `integer` parameter never
 * accepts a word, so `/documents/inbox/{id}` and `/documents/{id}/content` (both integer ids)
 * are told apart, which the built-in rule, reading every parameter as any text, cannot do.
 */

/** Per path, each segment: a word, or the schema type of the parameter it names. */
function shapes(paths) {
  return Object.entries(paths ?? {}).map(([path, item]) => {
    const types = new Map();
    for (const [key, op] of Object.entries(item ?? {})) {
      if (key === 'servers' || key === 'parameters' || typeof op !== 'object' || op === null) continue;
      for (const p of op.parameters ?? []) if (p?.in === 'path') types.set(p.name, p.schema?.type ?? 'string');
    }
    for (const p of item?.parameters ?? []) if (p?.in === 'path') types.set(p.name, p.schema?.type ?? 'string');
    const segments = path
      .split('/')
      .slice(1)
      .map((s) => {
        const name = /^\{(.+)\}$/.exec(s)?.[1];
        return name === undefined ? { word: s } : { param: types.get(name) ?? 'string' };
      });
    return { path, segments };
  });
}

/** Whether one request segment can match both. */
function overlap(a, b) {
  if ('word' in a && 'word' in b) return a.word === b.word;
  if ('param' in a && 'param' in b) return true;
  const word = 'word' in a ? a.word : b.word;
  const type = 'param' in a ? a.param : b.param;
  return type === 'integer' || type === 'number' ? /^-?\d+(\.\d+)?$/.test(word) : true;
}

export function ambiguousPairs(paths) {
  const all = shapes(paths);
  const pairs = [];
  for (const [i, a] of all.entries()) {
    for (const b of all.slice(i + 1)) {
      if (a.segments.length === b.segments.length && a.segments.every((s, k) => overlap(s, b.segments[k])))
        pairs.push([a.path, b.path]);
    }
  }
  return pairs;
}

function NoAmbiguousPaths() {
  return {
    Paths: {
      enter(paths, { report, location }) {
        for (const [a, b] of ambiguousPairs(paths)) {
          report({
            message: `Paths should resolve unambiguously (with their parameters' types): \`${a}\` and \`${b}\`.`,
            location: location.child([b]).key(),
          });
        }
      },
    },
  };
}

export default function ledgerPlugin() {
  return {
    id: 'ledger',
    rules: {
      oas3: { 'no-ambiguous-paths': NoAmbiguousPaths },
    },
  };
}
