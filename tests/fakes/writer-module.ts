// An in-process adapter that claims only `writer`, for tests/compare-command.test.ts: the reference's
// load, surface, messages and append, except that its append refuses a log holding a type of no
// vocabulary (a writer accepts any type, UNK-2) and a `time` that is no non-negative integer (PROC-4
// leaves that answer open).
import { referenceAdapter, type Adapter } from '../../conformance/index.ts'

const KNOWN_PREFIXES = ['user/', 'assistant/', 'tool/', 'turn/', 'step/', 'session/', 'compaction/', 'request/', 'raw/']

const append: NonNullable<Adapter['operations']['append']> = (input, context) => {
  const time = input['time']
  if (typeof time !== 'number' || !Number.isInteger(time) || time < 0) return { ok: false, error: { code: 'ENV_TIME_INVALID', seq: 0 } }
  const events = input['events'] as { type: string }[]
  const unknown = events.findIndex((event) => !KNOWN_PREFIXES.some((prefix) => event.type.startsWith(prefix)))
  if (unknown !== -1) return { ok: false, error: { code: 'FORMAT_UNKNOWN_EVENT_TYPE', seq: unknown } }
  return referenceAdapter.operations.append!(input, context)
}

const { load, surface, messages } = referenceAdapter.operations
const adapter: Adapter = {
  meta: { name: 'writer-module', version: '0.0.1', language: 'typescript', profiles: ['writer'] },
  operations: { load, surface, messages, append },
}

export default adapter
