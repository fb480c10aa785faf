export type { SchemaError, SchemaValidator } from './validators.generated.cjs';
export { validateShellConfig, validateStandaloneConfig, validateCspAdditions } from './validators.generated.cjs';
export { describeSchemaErrors } from './problems.cjs';
