/** Serving stage: the SDK's handler answers the request, its server built for the request's connection and tools. */
import type { McpHandlerRequestOptions } from '@modelcontextprotocol/server';
import { fetchAnswer } from '../nodeBridge.ts';
import type { ServeEnv } from './state.ts';
import type { WebExchange } from './toWebRequest.ts';
import { extended } from '../pipeline.ts';

export interface Answered extends WebExchange {
  response: Response;
}

export async function runSdk({ deps, sdk }: ServeEnv, state: WebExchange): Promise<Answered> {
  const options: McpHandlerRequestOptions = {
    authInfo: state.authInfo,
    ...(state.body !== undefined ? { parsedBody: state.body } : {}),
  };
  const response = await fetchAnswer(sdk, state.request, options, (err) =>
    deps.log.warn({ err: err.message }, 'MCP request rejected by the SDK'),
  );
  return extended(state, { response });
}
