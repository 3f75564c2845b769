/**
 * Stage 3, body bound: a multipart body becomes its JSON part and its files, as the contract
 * declares, within the file limit (kernel/multipart.ts); a multipart body where the contract
 * declares none is a 415. Other bodies were read (within their byte limit) before routing.
 */
import type { LedgerConfig } from '../../config.ts';
import { isMultipart, readMultipart } from '../multipart.ts';
import type { Flow, Stage } from './flow.ts';

export const bodyBound: Stage = {
  name: 'body bound',
  appliesTo: () => true,
  async run(flow: Flow): Promise<void> {
    const { ctx } = flow;
    if (isMultipart(ctx)) {
      const multipart = await readMultipart(ctx, flow.served.contract, (ctx.config as LedgerConfig).fileLimit);
      ctx.request.body = multipart.body;
      flow.uploads = multipart.uploads;
    }
    return flow.next();
  },
};
