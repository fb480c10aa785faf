// What the shell's page imports (`@gatehouse/config/validate`): the validators compiled from config.schema.json
// and the sentences their problems become, nothing that needs Node.
const { validateShellConfig, validateStandaloneConfig, validateCspAdditions } = require('./validators.generated.cjs');
const { describeSchemaErrors } = require('./problems.cjs');

module.exports = { validateShellConfig, validateStandaloneConfig, validateCspAdditions, describeSchemaErrors };
