/**
 * The shipped default model: models/fallback-default.json, trained by scripts/train-fallback.ts on
 * the project's generated sites. Imported (so bundlers include it), validated once.
 */
import defaultModelJson from '../../models/fallback-default.json' with { type: 'json' };
import { compileModel, parseModel, type CompiledModel, type FallbackModel } from './model';

let model: FallbackModel | undefined;

/** The default model (parsed on first use). */
export function defaultFallbackModel(): FallbackModel {
  return (model ??= parseModel(defaultModelJson));
}

/** The default model, compiled. */
export function defaultCompiledModel(): CompiledModel {
  return compileModel(defaultFallbackModel());
}
