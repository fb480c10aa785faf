import type { SchemaError } from './validators.generated.cjs';

/** One sentence per problem a generated validator found, naming the field (see problems.cjs). */
export declare function describeSchemaErrors(errors: readonly SchemaError[] | null | undefined, data: unknown, prefix?: string): string[];
