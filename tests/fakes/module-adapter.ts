// An in-process adapter of someone else's, for `dsh-conformance run --adapter-module` in
// tests/runner.test.ts: the reference, except that its surface reports every generation as -0.
import { referenceAdapter, type Adapter } from '../../conformance/index.ts'

const surface: NonNullable<Adapter['operations']['surface']> = async (input, context) => {
  const result = await referenceAdapter.operations.surface!(input, context)
  return result.ok ? { ok: true, value: { ...(result.value as Record<string, unknown>), generation: -0 } } : result
}

const adapter: Adapter = {
  meta: { name: 'module-adapter', version: '0.0.1', language: 'typescript', profiles: ['reader'] },
  operations: { ...referenceAdapter.operations, surface },
}

export default adapter
