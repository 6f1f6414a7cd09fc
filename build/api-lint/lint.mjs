// Lints the api's OpenAPI description with Spectral (OWASP ruleset, .spectral.yaml) and Redocly
// (redocly.yaml): exits non-zero on any error of either. Run by the api module at verify, from the
// repository root, after OpenApiDescriptionIT has written api/target/openapi/openapi.json. Without that
// file (ITs skipped or filtered) it says so and passes, unless CI=true.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const spec = process.argv[2] ?? 'api/target/openapi/openapi.json';

if (!existsSync(spec)) {
  const message = `api-lint: ${spec} is absent (OpenApiDescriptionIT did not run)`;
  if (process.env.CI === 'true') {
    console.error(`${message}; CI=true needs it`);
    process.exit(1);
  }
  console.log(`${message}; skipped`);
  process.exit(0);
}

function run(name, args) {
  console.log(`api-lint: ${name}`);
  const r = spawnSync(process.execPath, args, { stdio: 'inherit' });
  return r.status === 0;
}

const spectral = run('Spectral (OWASP ruleset)', [
  join(here, 'node_modules/@stoplight/spectral-cli/dist/index.js'), 'lint', spec,
  '--ruleset', join(here, '.spectral.yaml'), '--fail-severity', 'error', '--display-only-failures']);
const redocly = run('Redocly', [
  join(here, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', spec,
  '--config', join(here, 'redocly.yaml'), '--format', 'codeframe']);
process.exit(spectral && redocly ? 0 : 1);
