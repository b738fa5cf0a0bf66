// ESLint for the package's TypeScript sources (web/package/src): typescript-eslint's recommended
// rules with type information (the sources' tsconfig: XFB_TSCONFIG, default the package's, whose
// '#engine-tables' path names the default build folder). Run by ctest web.eslint (tests/web/lint.mjs).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const project = resolve(process.env.XFB_TSCONFIG ?? resolve(here, '../package/tsconfig.json'));

export default tseslint.config(
  { files: ['**/*.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { project, tsconfigRootDir: dirname(project) } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Parameters a signature keeps for its callers (WebGPU's createCapture()) start with '_'.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: 'error',
    },
  },
);
