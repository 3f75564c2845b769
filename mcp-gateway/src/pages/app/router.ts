/**
 * The app: the pages people use after sign-in on the gateway's public origin (docs/app.md).
 * Each page calls the ledger's REST API as the signed-in person (ledgerClient.callAsPerson), in the
 * person's language (language.ts).
 */
import Router from '@koa/router';
import type { GatewayDeps } from '../../deps.ts';
import { parseBody } from '../../http/bodyParser.ts';
import { errorBoundary, pageErrors } from '../../http/errors.ts';
import { access } from './access.tsx';
import { apiKeysPages } from './apiKeys.tsx';
import { bankAccountPages } from './bankAccount.tsx';
import { companyPages } from './company.tsx';
import { fixedAssetsPages } from './fixedAssets.tsx';
import { homePage } from './home.tsx';
import { auditPages } from './audit.tsx';
import { bankPages } from './bank.tsx';
import { chartPages } from './chart.tsx';
import { closingPages } from './closing.tsx';
import { entriesPages } from './entries.tsx';
import { inboxPages } from './inbox.tsx';
import { invoicesPages } from './invoices.tsx';
import { invitationsPages } from './invitations.tsx';
import { inPageLanguage } from './language.ts';
import { membersPages } from './members.tsx';
import { partiesPages } from './parties.tsx';
import { profilePages } from './profile.tsx';
import { dunningPages } from './dunning.tsx';
import { quotesPages } from './quotes.tsx';
import { recurringPages } from './recurring.tsx';
import { reportsPages } from './reports.tsx';
import { vatPages } from './vat.tsx';
import { revaluationPages } from './revaluation.tsx';
import { workstationPages } from './workstation.tsx';

export function appRouter(deps: GatewayDeps): Router {
  const router = new Router();
  router.use(errorBoundary(pageErrors, deps.log), parseBody, inPageLanguage(deps));
  const pages = access(deps);
  homePage(router, deps, pages);
  invitationsPages(router, deps, pages);
  profilePages(router, deps, pages);
  apiKeysPages(router, pages);
  membersPages(router, pages);
  companyPages(router, pages);
  workstationPages(router, pages);
  inboxPages(router, pages);
  partiesPages(router, pages);
  invoicesPages(router, pages);
  entriesPages(router, pages);
  chartPages(router, pages);
  auditPages(router, pages);
  reportsPages(router, pages);
  bankPages(router, pages);
  bankAccountPages(router, pages);
  vatPages(router, pages);
  quotesPages(router, pages);
  recurringPages(router, pages);
  dunningPages(router, pages);
  fixedAssetsPages(router, pages);
  revaluationPages(router, pages);
  closingPages(router, pages);
  return router;
}
