/**
 * The one SHA-256 of file contents (hex): the document store keys bytes by it and every
 * attachment table keeps it to tell a file sent again from a new one.
 */
import { createHash } from 'node:crypto';

export const sha256Hex = (data: Buffer): string => createHash('sha256').update(data).digest('hex');
