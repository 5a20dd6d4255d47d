/**
 * A fallback model file (`spider train`'s, stored at `models/fallback.json`; or written by
 * scripts/train-fallback.ts), read for the bench (`--fallback-model`) and the fallback-methods bench
 * (`--model`): checked as the store's documents are (lib/store/documents.ts), with a one-line error.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FallbackModelSchema, type FallbackModel } from '../lib/fallback/model';
import { parseDocument } from '../lib/store/documents';

export interface ModelFile {
  readonly model: FallbackModel;
  /** The file's bytes, as apply reads them from a store. */
  readonly bytes: Buffer;
  /** The file's name, and the first 12 hex digits of its SHA-256: two models stored under one name stay apart. */
  readonly file: string;
  readonly sha256: string;
}

export async function readModelFile(file: string, option = '--fallback-model'): Promise<ModelFile> {
  const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`${option} ${file}: cannot read it (${error.code ?? error.message})`);
  });
  const parsed = parseDocument(bytes, FallbackModelSchema);
  if (!parsed.ok) throw new Error(`${option} ${file}: not a fallback model (${parsed.problem})`);
  return { model: parsed.value, bytes, file: path.basename(file), sha256: createHash('sha256').update(bytes).digest('hex').slice(0, 12) };
}
