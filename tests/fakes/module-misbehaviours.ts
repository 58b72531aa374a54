// In-process adapters that misbehave, for tests/runner-outputs.test.ts: the reference, gone wrong as
// MODULE_MISBEHAVIOUR says: `exit` ends the process (exit status 0) in its second surface call,
// `unnamed` declares no version or language, `escape` has a terminal escape sequence in its name,
// `linger` leaves a timer running for ever.
import { referenceAdapter, type Adapter } from '../../conformance/index.ts'

const misbehaviour = process.env['MODULE_MISBEHAVIOUR']
if (misbehaviour === 'linger') setInterval(() => undefined, 1000)
let surfaceCalls = 0

const surface: NonNullable<Adapter['operations']['surface']> = async (input, context) => {
  surfaceCalls += 1
  if (misbehaviour === 'exit' && surfaceCalls === 2) process.exit(0)
  return referenceAdapter.operations.surface!(input, context)
}

const meta = { name: misbehaviour === 'escape' ? 'impl\u001b[8m' : 'module-misbehaviour', version: '0.0.1', language: 'typescript', profiles: ['reader'] }
const { version: _version, language: _language, ...unnamed } = meta

const adapter = {
  meta: misbehaviour === 'unnamed' ? unnamed : meta,
  operations: { ...referenceAdapter.operations, surface },
} as Adapter

export default adapter
