/**
 * A tool input the schema refuses, said as the ledger's REST API says it: an unknown field
 * by its name and pointer (`Field "acount" is not allowed here`) instead of the validator's
 * list of every branch's complaints, and a date in another format with the one it must have
 * (YYYY-MM-DD). Other refusals keep the validator's own message.
 */
import { dateFormatMessage } from '@ledger/shared';
import type { Ajv } from '@modelcontextprotocol/server/validators/ajv';

/** The validator instance the catalogue compiles with (catalogue.ts). */
export type AjvInstance = InstanceType<typeof Ajv>;
type ValidateFunction = ReturnType<AjvInstance['compile']>;
type ErrorObject = NonNullable<ValidateFunction['errors']>[number];

const compiled = new WeakMap<object, ValidateFunction>();

/** The message naming the field at fault, or undefined when the refusal is of another kind. */
export function namedInputProblem(ajv: AjvInstance, schema: object, input: unknown): string | undefined {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(input)) return undefined;
  const errors = validate.errors ?? [];
  const unknown = unknownField(errors);
  if (unknown) return `invalid_request: Field "${unknown.name}" is not allowed here. (field ${unknown.pointer})`;
  const date = deepest(errors.filter((e) => e.keyword === 'format' && e.params.format === 'date'));
  if (date) {
    const name = date.instancePath.split('/').pop() ?? 'date';
    return `invalid_request: ${dateFormatMessage(name)} (field ${date.instancePath})`;
  }
  return undefined;
}

/**
 * The unknown field: the deepest one reported; among equals (the branches of a `oneOf` each
 * report the other's fields) the one most branches report.
 */
function unknownField(errors: readonly ErrorObject[]): { name: string; pointer: string } | undefined {
  const found = errors
    .filter((e) => e.keyword === 'additionalProperties')
    .map((e) => {
      const name = String(e.params.additionalProperty);
      return { name, pointer: `${e.instancePath}/${name}` };
    });
  if (found.length === 0) return undefined;
  const depth = (p: string) => p.split('/').length;
  const count = (p: string) => found.filter((f) => f.pointer === p).length;
  return found.reduce((best, f) =>
    depth(f.pointer) > depth(best.pointer) ||
    (depth(f.pointer) === depth(best.pointer) && count(f.pointer) > count(best.pointer))
      ? f
      : best,
  );
}

function deepest(errors: readonly ErrorObject[]): ErrorObject | undefined {
  return errors.reduce<ErrorObject | undefined>(
    (best, e) => (!best || e.instancePath.split('/').length > best.instancePath.split('/').length ? e : best),
    undefined,
  );
}
