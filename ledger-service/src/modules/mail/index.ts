/**
 * The face of modules/mail: all that other modules may import from it (the rule and the module
 * order are in modules/order.ts, checked by kernel/imports.test.ts; docs/architecture.md).
 */
export { mailRoutes, mailSettings, mailSettingsOf, customerInvoiceContext } from './routes.ts';
export { emailInvoice } from './invoiceMail.ts';
export { letter, senderOf } from './texts.ts';
export type { MailSettings } from './invoiceMail.ts';
