// Request bodies of the ticket routes are validated without type coercion: the app's Ajv turns
// null into "" and 42 into "42" for string fields, which would let `category: null` store an
// empty string and a number pass as a message. TypeBox's compiler checks types as sent; its
// errors are mapped to the Ajv shape the error handler reads.
import type { FastifySchemaValidationError } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

interface TypeBoxError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message: string;
}

function toAjvErrors(errors: TypeBoxError[]): FastifySchemaValidationError[] {
  return errors.flatMap((error) => {
    if (error.keyword === 'required' && Array.isArray(error.params.requiredProperties)) {
      return (error.params.requiredProperties as string[]).map((missingProperty) => ({ ...error, params: { missingProperty } }));
    }
    return [error];
  }) as FastifySchemaValidationError[];
}

export function strictValidatorCompiler({ schema }: { schema: unknown }) {
  const validator = Compile(schema as TSchema);
  const validate = (data: unknown): boolean => {
    if (validator.Check(data)) return true;
    validate.errors = toAjvErrors([...validator.Errors(data)] as TypeBoxError[]);
    return false;
  };
  validate.errors = [] as FastifySchemaValidationError[];
  return validate;
}
