/**
 * The face of modules/invoices: all that other modules may import from it (the rule and the module
 * order are in modules/order.ts, checked by kernel/imports.test.ts; docs/architecture.md).
 */
export { documentLanguage, documentPdf, invoicePdf } from './pdfDocument.ts';
export { listInvoices, readInvoice } from './reads.ts';
export { createInvoice, INVOICE_KIND, type InvoiceContext, invoiceById, previewInvoice } from './service.ts';
export { invoiceRoutes } from './routes.ts';
