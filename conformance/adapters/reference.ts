// The reference interpreter as an in-process adapter.
import { reference } from '../../reference/index.ts'
import type { Adapter, Operation } from '../adapter.ts'
import { OPERATIONS } from '../vector-cases.ts'

const { name, version, language, profiles, ...functions } = reference
const operations: Adapter['operations'] = {}
for (const operation of OPERATIONS) {
  const implementation = (functions as Record<string, unknown>)[operation]
  if (typeof implementation === 'function') operations[operation] = implementation as Operation
}

export const referenceAdapter: Adapter = { meta: { name, version, language, profiles: [...profiles] }, operations }
