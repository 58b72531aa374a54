// In-process adapters for tests/cli.test.ts, tests/fuzz/command.test.ts and
// tests/compare-command-cli.test.ts (the exit statuses of each command): the reference, gone wrong as
// LIFECYCLE_MISBEHAVIOUR says: `exit` ends the process with status 0 in its first call of any
// operation, `close-throws` answers as the reference does but throws from close().
import { referenceAdapter, type Adapter } from '../../conformance/index.ts'

const misbehaviour = process.env['LIFECYCLE_MISBEHAVIOUR']

const operations = Object.fromEntries(Object.entries(referenceAdapter.operations).map(([name, operation]) => [
  name,
  (input: Record<string, unknown>, context: unknown) => {
    if (misbehaviour === 'exit') process.exit(0)
    return (operation as (input: Record<string, unknown>, context: unknown) => unknown)(input, context)
  },
])) as Adapter['operations']

const adapter: Adapter = {
  meta: { ...referenceAdapter.meta, name: 'lifecycle-misbehaviour', version: '0.0.1' },
  operations,
  close: async () => {
    if (misbehaviour === 'close-throws') throw new Error('close failed in the adapter')
  },
}

export default adapter
