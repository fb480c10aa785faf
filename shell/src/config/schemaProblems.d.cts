import type { SchemaError } from './schema.generated.cjs';

/** One sentence per problem a generated validator found, naming the field (see schemaProblems.cjs). */
export declare function describeSchemaErrors(errors: readonly SchemaError[] | null | undefined, data: unknown, prefix?: string): string[];
