/**
 * Train the fallback's default model from the project's own generated news sites (lib/demo, whose
 * truth labels every block) and write it to models/fallback-default.json. Deterministic: the same
 * code gives the same file, byte for byte (test/fallback/model.test.ts checks the shipped one).
 *
 *   npx tsx scripts/train-fallback.ts [--out models/fallback-default.json]
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DEFAULT_DESCRIPTION, defaultTrainingPages } from '../lib/fallback/generated';
import { modelJson } from '../lib/fallback/model';
import { trainModel } from '../lib/fallback/train';
import { scriptArgs } from '../lib/util/script-args';

async function main(): Promise<void> {
  const { values: args } = scriptArgs(
    { options: { out: { type: 'string', default: 'models/fallback-default.json' } } },
    'usage: npx tsx scripts/train-fallback.ts [--out models/fallback-default.json]',
  );
  const out = resolve(args.out);
  const started = performance.now();
  const model = trainModel(defaultTrainingPages(), { description: DEFAULT_DESCRIPTION, log: (m) => console.log(m) });
  const json = modelJson(model);
  await writeFile(out, json);
  console.log(`wrote ${out}: ${(json.length / 1024).toFixed(0)} KB in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const c = model.dragnet.classifier;
  console.log(`Dragnet classifier: bias ${c.bias.toFixed(2)}, ${c.features.map((f, k) => `${f} ${c.weights[k].toFixed(2)}`).join(', ')}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
