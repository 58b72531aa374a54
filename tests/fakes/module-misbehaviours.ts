// In-process adapters that misbehave, for the tests of run, compare, fuzz and the process around them:
// the reference, gone wrong as MODULE_MISBEHAVIOUR says: `exit` ends the process (exit status 0) in its
// second surface call, `exit-at-once` in its first call of any operation, `close-throws` answers as the
// reference does but throws from close(), `unnamed` declares no version or language, `escape` has a
// terminal escape sequence in its name, `linger` leaves a timer running for ever, `never-answers`
// returns a promise from every operation that never settles.
import { referenceAdapter, type Adapter } from '../../conformance/index.ts'

const misbehaviour = process.env['MODULE_MISBEHAVIOUR']
if (misbehaviour === 'linger') setInterval(() => undefined, 1000)
let surfaceCalls = 0

const surface: NonNullable<Adapter['operations']['surface']> = async (input, context) => {
  surfaceCalls += 1
  if (misbehaviour === 'exit' && surfaceCalls === 2) process.exit(0)
  return referenceAdapter.operations.surface!(input, context)
}

const operations = Object.fromEntries(Object.entries({ ...referenceAdapter.operations, surface }).map(([name, operation]) => [
  name,
  (input: Record<string, unknown>, context: unknown) => {
    if (misbehaviour === 'exit-at-once') process.exit(0)
    if (misbehaviour === 'never-answers') return new Promise(() => undefined)
    return (operation as (input: Record<string, unknown>, context: unknown) => unknown)(input, context)
  },
])) as Adapter['operations']

const meta = { name: misbehaviour === 'escape' ? 'impl\u001b[8m' : 'module-misbehaviour', version: '0.0.1', language: 'typescript', profiles: ['reader'] }
const { version: _version, language: _language, ...unnamed } = meta

const adapter = {
  meta: misbehaviour === 'unnamed' ? unnamed : meta,
  operations,
  ...(misbehaviour === 'close-throws' ? { close: async () => { throw new Error('close failed in the adapter') } } : {}),
} as Adapter

export default adapter
