/**
 * Stage 4, untrusted parse (routes with a prepareBody): the route turns the raw body and the
 * uploaded files into what the body schema validates, and reads what else it needs (a parsed
 * statement file, the uploads) into `prepared`. Files are parsed off the serving thread
 * (untrusted/), by the route's prepareBody.
 */
import { Prepared } from '../handler.ts';
import type { Flow, Stage } from './flow.ts';

export const untrustedParse: Stage = {
  name: 'untrusted parse',
  appliesTo: (route) => route.prepareBody !== undefined,
  async run(flow: Flow): Promise<void> {
    const read = await flow.served.route.prepareBody!(flow.ctx, flow.uploads);
    if (read instanceof Prepared) {
      flow.raw = read.body;
      flow.prepared = read.extra;
    } else flow.raw = read;
    return flow.next();
  },
};
