/**
 * Bank payment files (docs/bank.md): ISO 20022 pain.001.001.09 in the Swiss
 * Payment Standards variant, one payment per open vendor document, each document in one file only.
 */
import {
  paymentFileCreatedSchema,
  paymentFileCreateSchema,
  paymentFileListQuerySchema,
  paymentFileSchema,
} from '../schemas/bank.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

export const createPaymentFile = contract({
  name: 'createPaymentFile',
  method: 'POST',
  path: '/bank/payment_files',
  summary: 'Create a pain.001 payment file',
  description:
    'Create a pain.001 payment file (Swiss SPS) from a bank account: posted, open vendor documents with payment_file ' +
    '1 and a vc_bank_id (or the document_ids given), one payment each for the open amount, grouped by currency; 409 ' +
    'when a document is in a file already',
  example: examples.createPaymentFile,
  permission: 'bank.payment_files',
  scope: null,
  body: paymentFileCreateSchema,
  status: 201,
  location: '/bank/payment_files/{id}',
  response: paymentFileCreatedSchema,
  errors: ['conflict'],
});

export const listPaymentFiles = contract({
  name: 'listPaymentFiles',
  method: 'GET',
  path: '/bank/payment_files',
  summary: 'List payment files',
  description: 'The payment files created, newest first, with their payments',
  example: examples.listPaymentFiles,
  permission: 'bank.payment_files',
  scope: null,
  query: paymentFileListQuerySchema,
  response: { type: 'array', items: paymentFileSchema },
  list: true,
  errors: [],
});

export const getPaymentFile = contract({
  name: 'getPaymentFile',
  method: 'GET',
  path: '/bank/payment_files/:id',
  summary: 'Download a payment file (pain.001 XML)',
  description: 'The payment file as created: pain.001.001.09 XML (application/xml), for upload to the bank',
  example: examples.getPaymentFile,
  permission: 'bank.payment_files',
  scope: null,
  download: ['application/xml'],
  errors: [],
});
