// Where the spec sets no result for an input: outside an operation's domain (PROC-9, PROC-10 and the
// domain each operation's chapter states) any answer is conforming, so `compare` judges nothing there.
// An input inside every domain gets undefined. Inputs are decoded (no tagged values left).
import { reference } from '../reference/index.ts'
import { isNonNegativeSafeInteger, isRecord, optionalSnapshot } from '../reference/lossless-json.ts'
import { loadLog } from '../reference/processing.ts'
import type { OperationResult } from './expectations.ts'
import { OVER_LOADED_LOG } from './fuzz/probes.ts'
import type { OperationName } from './vector-cases.ts'

type Input = Record<string, unknown>

/** PROC-10: a member holding undefined is absent. */
const given = (input: Input, name: string): boolean => input[name] !== undefined

/** A non-negative safe integer of the lossless domain, which holds no -0 (JSON-3). */
const isDomainCount = (value: unknown): boolean => isNonNegativeSafeInteger(value) && !Object.is(value, -0)

const CLOCKS: Partial<Record<OperationName, { name: string; rule: string }>> = {
  append: { name: 'time', rule: 'PROC-4' },
  resume: { name: 'now', rule: 'spec/00-processing.md, the operation table' },
  fork: { name: 'now', rule: 'spec/15-fork.md, Inputs' },
}

/** What of the input's own members (not its log) is outside the operation's domain. */
function memberProblem(operation: OperationName, input: Input): string | undefined {
  const clock = CLOCKS[operation]
  if (clock !== undefined && !isDomainCount(input[clock.name])) return `its ${clock.name} is no non-negative safe integer (${clock.rule})`
  if (operation === 'fork' && (typeof input['childId'] !== 'string' || input['childId'] === '')) return 'its childId is no non-empty string (spec/15-fork.md, Inputs)'
  if (operation === 'compactionState' && given(input, 'entry') && input['entry'] !== 'automatic' && input['entry'] !== 'manual') return 'its entry is neither "automatic" nor "manual" (spec/00-processing.md, the operation table)'
  if (operation === 'regionBalance' && given(input, 'seq') === (given(input, 'start') || given(input, 'end'))) return 'it gives neither or both of seq and a region (REGION-6)'
  if (operation === 'regionBalance' && given(input, 'start') !== given(input, 'end')) return 'it gives only one of start and end (REGION-6)'
  if (operation === 'surface' && given(input, 'baseSeq') && !isDomainCount(input['baseSeq'])) return 'its baseSeq is no non-negative safe integer (PROC-10)'
  return undefined
}

/** load's answer on the operation's log: a writer's log skips the vocabulary phase and takes none (PROC-9). */
function loadedLog(operation: OperationName, input: Input): OperationResult {
  if (operation !== 'append') return reference.load(input)
  return loadLog({ header: optionalSnapshot(input['header']), events: input['events'] as unknown[], sessionId: input['sessionId'], checkVocabulary: false })
}

/** HDR-4, HDR-8: an atSeq, when given, is the seq of an event of the log (JSON-14: -0 is none). */
function atSeqProblem(input: Input, loaded: unknown[]): string | undefined {
  if (!given(input, 'atSeq')) return undefined
  const atSeq = input['atSeq']
  return loaded.some((event) => isRecord(event) && Object.is(event['seq'], atSeq)) ? undefined : 'its atSeq is the seq of no event of the log (HDR-4)'
}

/**
 * Why the spec leaves the operation's result on this input open, or undefined when it sets one.
 * `expected` is the reference's result: a surface window that does not fold is loaded as a window
 * (ENV-10), so surface's own rejection says so.
 */
export function openResult(operation: OperationName, input: Input, expected: OperationResult): string | undefined {
  const takesLog = OVER_LOADED_LOG.has(operation) || operation === 'append'
  if (!takesLog) return undefined
  const member = memberProblem(operation, input)
  if (member !== undefined) return `${member}, outside the operation's domain`
  if (!Array.isArray(input['events'])) return `its events is no array, outside every operation's domain (PROC-10)`
  if (operation === 'surface' && given(input, 'baseSeq')) {
    return expected.ok ? undefined : `the window does not fold (${expected.error.code}), and the spec defines surface only over a window that loads (PROC-9, ENV-10)`
  }
  const loaded = loadedLog(operation, input)
  if (!loaded.ok) {
    const where = loaded.error.seq === undefined ? '' : ` at seq ${loaded.error.seq}`
    const phase = operation === 'append' ? ', the vocabulary phase aside,' : ''
    return `load${phase} rejects the log (${loaded.error.code}${where}), and the spec defines ${operation} only over a log load accepts (PROC-9)`
  }
  return operation === 'requestHeader' || operation === 'requestContext' ? atSeqProblem(input, loaded.value as unknown[]) : undefined
}
