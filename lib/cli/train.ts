/** `spider train`'s report: what the fallback model was trained on, and how it did on held-out sites. */
import type { StoreTrainingResult } from '../fallback/store-training';
import { plural } from '../text/plural';

const f3 = (x: number) => x.toFixed(3);

export function formatTraining(result: StoreTrainingResult): string {
  const { model, sites, holdout } = result;
  const names = Object.keys(sites);
  const lines = [
    `trained on ${plural(result.pages, 'page')} of ${plural(names.length, 'learned site')}${result.generatedPages ? ` + ${plural(result.generatedPages, 'generated page')}` : ''}:`,
    ...names.map((site) => `  ${site}\t${plural(sites[site], 'page')}`),
    `model: ${model.blocks} labelled blocks, ${Object.keys(model.dragnet.tokens).length} id/class tokens, ${Object.keys(model.naiveBayes.kinds.tri?.counts ?? {}).length} Naive Bayes trigrams`,
  ];
  if (holdout) {
    lines.push(
      `holdout: ${plural(holdout.pages, 'page')} of ${plural(holdout.sites.length, 'site')} (${holdout.sites.join(', ')}), each extracted by a model trained without its site, scored against its rules' articles:`,
      `  retrained model  F1 ${f3(holdout.retrained.f1)}  (precision ${f3(holdout.retrained.precision)}, recall ${f3(holdout.retrained.recall)})`,
      `  default model    F1 ${f3(holdout.default.f1)}  (precision ${f3(holdout.default.precision)}, recall ${f3(holdout.default.recall)})`,
    );
    if (holdout.retrained.f1 < holdout.default.f1) {
      lines.push('  the retrained model does worse than the default on sites it has not seen; `spider train --reset` goes back to the default');
    }
  } else {
    lines.push('holdout: not measured (needs 2 learned sites or more, and --holdout above 0)');
  }
  return lines.join('\n');
}
