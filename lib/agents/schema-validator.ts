import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";

/**
 * A JSON Schema (draft 2020-12) validator that is not zod: the tests check agent JSON against the
 * schemas the site publishes, with an independent implementation of the standard.
 */

export function schemaValidator(schema: Record<string, unknown>): (data: unknown) => string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  return (data) => (validate(data) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`));
}
