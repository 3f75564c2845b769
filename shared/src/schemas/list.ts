/**
 * Query parameters every paged list shares: `limit`, `offset` and `sort`. A sort key is a
 * field name for ascending order or `-name` for descending; anything else is a 400.
 */
export const pageQueryProperties = {
  limit: {
    type: 'integer',
    minimum: 1,
    maximum: 1000,
    default: 100,
    description: 'rows per page (X-Total-Count gives the total)',
  },
  offset: {
    type: 'integer',
    minimum: 0,
    default: 0,
    description: 'rows to skip; follow the Link rel="next" / rel="prev" headers',
  },
} as const;

export function sortSchema<K extends string>(keys: readonly K[], defaultSort: K | `-${K}`, description: string) {
  return {
    type: 'string',
    enum: keys.flatMap((k) => [k, `-${k}`]),
    default: defaultSort,
    description: `${description}; "-" in front sorts descending. Default ${defaultSort}`,
  } as const;
}

/** A sort value split into its key and direction. */
export function parseSort(sort: string): { key: string; descending: boolean } {
  return sort.startsWith('-') ? { key: sort.slice(1), descending: true } : { key: sort, descending: false };
}

/** The query of a list with nothing to filter or sort by: only the page. */
export const pageQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: pageQueryProperties,
} as const;

/**
 * The page of a list meant to be fetched once and cached (the chart of accounts, the tax
 * rates): the same parameters and headers as every list, but the first page is as large as
 * a page may be, so one request without `limit` still brings a whole usual chart; a larger
 * one follows `Link` like any list.
 */
export const cachedListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { ...pageQueryProperties.limit, default: 1000 },
    offset: pageQueryProperties.offset,
  },
} as const;
