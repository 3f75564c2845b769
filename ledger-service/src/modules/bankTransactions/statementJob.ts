import { fileJob } from '../../untrusted/index.ts';
import { parseStatementFile, toWire, type StatementInput } from './statementFile.ts';

/** Runs on a parsing thread (untrusted/pool.ts): a statement file's text in, its statements out. */
export const parseStatement = fileJob((input: StatementInput) =>
  toWire(parseStatementFile(input.text, input.mediaType)),
);
