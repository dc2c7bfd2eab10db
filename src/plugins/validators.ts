// Two validators: path and query values arrive as text, so "5" becomes 5 there; a JSON body is
// checked as sent, so null never turns into "" nor 42 into "42" (which would let a number pass as a
// message or make `category: null` store an empty string). Every error is reported, as clients
// show one sentence per field; the body size limit bounds that work.
//
// Both the validators and the response serializers (fast-json-stringify, as Fastify's default) are
// compiled on a route's first request, not at start: compiling every route's schemas took most of
// a start's time before its first answer (docs/performance.md, "Startup").
import { Ajv, type Options as AjvOptions, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import fastJson, { type Schema } from 'fast-json-stringify';
import fp from 'fastify-plugin';

/** A validator compiled on its first call; Fastify reads a failed call's errors from the function. */
function validatorOnFirstUse(compile: () => ValidateFunction): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const validate = ((data: unknown) => {
    compiled ??= compile();
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  }) as ValidateFunction;
  return validate;
}

/** A response serializer compiled on its first answer, with the options Fastify's default compiler uses. */
function serializerOnFirstUse(schema: Schema): (data: unknown) => string {
  let serialize: ((data: unknown) => string) | undefined;
  return (data) => {
    serialize ??= fastJson(schema, { schema: {} });
    return serialize(data);
  };
}

/**
 * A query string keeps only the keys its schema declares: an unknown key (a front-end's extra
 * parameter, a staff-only filter on a member route) is dropped before the handler runs, so no
 * undeclared value reaches SQL or an answer-reuse key (docs/decisions.md, "Unknown query keys").
 */
function closedObject<T extends object>(schema: T): T {
  const object = schema as { type?: unknown; additionalProperties?: unknown };
  return object && object.type === 'object' && object.additionalProperties === undefined
    ? ({ ...object, additionalProperties: false } as T)
    : schema;
}

export default fp(
  async (app) => {
    const common: AjvOptions = {
      useDefaults: true,
      removeAdditional: true,
      addUsedSchema: false,
      allErrors: true,
      strict: false,
    };
    // Made with the first validator compiled, like the validators themselves.
    let coercing: Ajv | undefined;
    let exact: Ajv | undefined;
    const ajvFor = (httpPart: string | undefined): Ajv => {
      if (httpPart === 'body') {
        exact ??= addFormats.default(new Ajv({ ...common, coerceTypes: false }));
        return exact;
      }
      coercing ??= addFormats.default(new Ajv({ ...common, coerceTypes: 'array' }));
      return coercing;
    };
    app.setValidatorCompiler(({ schema, httpPart }) =>
      validatorOnFirstUse(() => ajvFor(httpPart).compile(httpPart === 'querystring' ? closedObject(schema) : schema)),
    );
    app.setSerializerCompiler(({ schema }) => serializerOnFirstUse(schema as Schema));
  },
  { name: 'validators' },
);
