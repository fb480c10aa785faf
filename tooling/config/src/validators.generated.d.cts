// Types of the generated validators (scripts/generate.mjs writes validators.generated.cjs); Ajv's standalone code
// ships none.

/** One problem found by a generated validator: where (a JSON pointer into the config) and what (Ajv's keyword and params). */
export interface SchemaError {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message?: string;
  /** set when the problem is an object's key (`propertyNames`), not a value */
  readonly propertyName?: string;
}

/** A validator compiled from config.schema.json; after a call, `errors` lists the problems (null when valid). */
export interface SchemaValidator {
  (data: unknown): boolean;
  errors?: readonly SchemaError[] | null;
}

/** the whole config.json of the shell */
export declare const validateShellConfig: SchemaValidator;
/** a remote's own public/config.json (identity provider only) */
export declare const validateStandaloneConfig: SchemaValidator;
/** a deployment description's "csp" additions (deploy/nginx/render.mjs) */
export declare const validateCspAdditions: SchemaValidator;
