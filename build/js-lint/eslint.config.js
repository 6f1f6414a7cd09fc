// ESLint flat config for chainfeed's static JavaScript. Errors only for what breaks at run time or
// hides a mistake: syntax, undefined names, unused variables and imports, and ESLint's recommended set.
// The page modules are ES modules in the browser; the widget and the demo script are classic scripts.
import js from '@eslint/js';
import globals from 'globals';

const rules = {
  ...js.configs.recommended.rules,
  'no-undef': 'error',
  'no-unused-vars': ['error', { args: 'after-used', caughtErrors: 'none' }],
};

export default [
  {
    files: ['api/src/main/resources/static/js/**/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.browser } },
    rules,
  },
  {
    files: ['api/src/main/resources/static/widget/**/*.js', 'infra/devstack/src/main/resources/**/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'script', globals: { ...globals.browser } },
    rules,
  },
];
