// ESLint: typescript-eslint's recommended rules on the whole tree, and the layering of lib/ (README,
// "Layering"): a folder of lib/ imports only folders of a lower layer, never one of its own layer or
// above, and nothing outside lib/. A back edge fails `npm run lint` (and CI).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** lib/'s folders, bottom layer first; a folder may import the folders of the layers below its own. */
export const LAYERS = [
  ['types', 'config', 'util', 'text', 'metric', 'dataset', 'demo'],
  ['html', 'net', 'store'],
  ['politeness'],
  ['queue'],
  ['step'],
  ['fields', 'fallback'],
  ['learn', 'apply', 'render'],
  ['aws', 'pipeline', 'report'],
  ['cli'],
];
const OUTSIDE_LIB = ['bench', 'functions', 'cdk', 'scripts', 'test', 'infra-tests'];

const alternation = (names) => names.join('|');

function layeringFor(folder, rank) {
  const forbidden = LAYERS.slice(rank).flat().filter((f) => f !== folder);
  return {
    files: [`lib/${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(${alternation(forbidden)})(/|$)`,
              message: `lib/${folder} may import only the folders of the layers below its own (README, "Layering"): move the shared code down instead.`,
            },
            {
              regex: `^(\\.\\./)+(${alternation(OUTSIDE_LIB)})(/|$)`,
              message: 'lib/ holds what the product runs: it never imports benchmarks, tests, handlers, scripts or the stack.',
            },
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'cdk.out/**', '.bench/**', 'storage/**', 'coverage/**', 'dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // The regexes that strip NUL and other control characters from page text mean to match them.
      'no-control-regex': 'off',
      // `\/` inside a regex is a readability choice, not a defect; rewriting them all is churn.
      'no-useless-escape': 'off',
      // Attaching `cause` to rethrown errors is worth doing, but it changes error objects the render
      // cache and the dead letters see; left for a change of its own.
      'preserve-caught-error': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // Tests and stack assertions read CloudFormation JSON and test doubles as `any`.
    files: ['test/**/*.ts', 'infra-tests/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  ...LAYERS.flatMap((folders, rank) => folders.map((folder) => layeringFor(folder, rank))),
);
