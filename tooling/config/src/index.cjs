// @gatehouse/config: the deployment contract of a Gatehouse shell (decisions/0075) — config.json's JSON Schema
// (config.schema.json), the validators compiled from it and their problem sentences, and the Content-Security-
// Policy and security headers derived from a config. This is the Node entry; the shell's page imports
// `@gatehouse/config/validate` (the validators alone).
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { schemaDigest, SCHEMA_DIGEST_PREFIX } = require('./digest.cjs');

const GENERATED = join(__dirname, 'validators.generated.cjs');
const SCHEMA = join(__dirname, '..', 'config.schema.json');
const REGENERATE = 'npm ci, or npm run build -w @gatehouse/config, writes it';

// The validators are compiled from the schema, not committed: refuse to check configs with a missing file or one
// compiled from another schema text, rather than let an edit of the schema pass unchecked.
if (!existsSync(GENERATED)) {
  throw new Error(`@gatehouse/config: ${GENERATED} is missing (it is compiled from config.schema.json; ${REGENERATE}).`);
}
const compiledFrom = readFileSync(GENERATED, 'utf8').split('\n', 1)[0];
if (compiledFrom !== `// ${SCHEMA_DIGEST_PREFIX}${schemaDigest(readFileSync(SCHEMA, 'utf8'))}`) {
  throw new Error(`@gatehouse/config: ${GENERATED} was compiled from another config.schema.json (${REGENERATE} again).`);
}

const validate = require('./validate.cjs');
const csp = require('./csp.cjs');

// One `exports.name =` each, so Node's ES modules import them by name (deploy/nginx/render.mjs).
exports.validateShellConfig = validate.validateShellConfig;
exports.validateStandaloneConfig = validate.validateStandaloneConfig;
exports.validateCspAdditions = validate.validateCspAdditions;
exports.describeSchemaErrors = validate.describeSchemaErrors;
exports.SCHEMA_FILE = SCHEMA;
exports.originOf = csp.originOf;
exports.remotesOf = csp.remotesOf;
exports.overrideOriginsOf = csp.overrideOriginsOf;
exports.identityProviderOriginOf = csp.identityProviderOriginOf;
exports.assertValidInput = csp.assertValidInput;
exports.shellCsp = csp.shellCsp;
exports.devCspAdditions = csp.devCspAdditions;
exports.remoteCsp = csp.remoteCsp;
exports.PERMISSIONS_POLICY = csp.PERMISSIONS_POLICY;
exports.HSTS = csp.HSTS;
exports.DEV_FLOOR_CSP = csp.DEV_FLOOR_CSP;
exports.securityHeaders = csp.securityHeaders;
