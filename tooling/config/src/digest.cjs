// The digest that ties a generated validator to the schema text it was compiled from (scripts/generate.mjs writes
// it into the file's first line; src/index.cjs compares it with config.schema.json's before it loads the file).
const { createHash } = require('node:crypto');

/** What the generated file's first line starts with, before the digest. */
const SCHEMA_DIGEST_PREFIX = 'config.schema.json sha256: ';

/** @param {string} text the schema file's text @returns {string} */
function schemaDigest(text) {
  return createHash('sha256').update(text).digest('hex');
}

module.exports = { schemaDigest, SCHEMA_DIGEST_PREFIX };
