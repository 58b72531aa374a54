// One Ajv instance holding every schema of schemas/, for tests that validate what the suite writes or
// reads against its schema.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'

const schemaDir = fileURLToPath(new URL('../../schemas', import.meta.url))
const ajv = new Ajv2020({ strict: true, allErrors: true })
for (const file of readdirSync(schemaDir).filter((name) => name.endsWith('.schema.json'))) {
  ajv.addSchema(JSON.parse(readFileSync(join(schemaDir, file), 'utf8')))
}

/** The validator of schemas/<name>.schema.json, at `fragment` (`#/$defs/X`) or its root. */
export function schemaValidator(name: string, fragment = ''): ValidateFunction {
  const validate = ajv.getSchema(`https://dsh-session-conformance.dev/schemas/v0/${name}.schema.json${fragment}`)
  if (validate === undefined) throw new Error(`no schema ${name}.schema.json${fragment}`)
  return validate
}

/** The first few errors of the last validation, for an assertion's message. */
export const errorsOf = (validate: ValidateFunction): string => JSON.stringify(validate.errors?.slice(0, 3))

/**
 * Whether `read` accepts its document: it returns rather than throws. The reader's verdict, to set beside
 * a schema's. A TypeError, RangeError or ReferenceError is a crash of the reader, not its refusal: it is
 * thrown on, so that a reader that crashes where it should refuse fails the test.
 */
export function accepts(read: () => unknown): boolean {
  try {
    read()
    return true
  } catch (error) {
    if (error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError) throw error
    return false
  }
}
