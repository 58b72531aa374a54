// Where the spec sets no result for an input: outside an operation's domain (PROC-9, PROC-10 and the
// domain each operation's chapter states) any answer is conforming, so `compare` judges nothing there,
// no vector may go there (tests/vectors.test.ts), and the fuzzer compares no probe there. An input
// inside every domain gets undefined. Inputs are decoded (no tagged values left).
import { reference } from '../reference/index.ts'
import { isNonNegativeSafeInteger, isRecord, jsonEqual, optionalSnapshot, snapshotJson } from '../reference/lossless-json.ts'
import { loadLog } from '../reference/processing.ts'
import { heldIndices } from '../reference/array-indices.ts'
import { headerFieldsFault, headerIdentityFault } from '../reference/storage-header.ts'
import type { OperationResult } from './expectations.ts'
import type { OperationName } from './vector-cases.ts'

type Input = Record<string, unknown>

/** The operations other than load that take a log, which must be one load accepts (PROC-9). */
export const OVER_LOADED_LOG: ReadonlySet<OperationName> = new Set([
  'surface', 'messages', 'requestHeader', 'requestContext', 'relations', 'repair', 'resume', 'compactionState', 'regionBalance', 'fork',
])

/** PROC-10: a member holding undefined is absent. */
const given = (input: Input, name: string): boolean => input[name] !== undefined

/** A non-negative safe integer of the lossless domain, which holds no -0 (JSON-3). */
const isDomainCount = (value: unknown): boolean => isNonNegativeSafeInteger(value) && !Object.is(value, -0)

/** Whether a value is inside the lossless JSON domain (chapter 02). */
export const isLossless = (value: unknown): boolean => snapshotJson(value).fault === undefined

/** Whether chapter 03 accepts a session header (JSONL-5 and STORE-1 define their operations for no other). */
export function isAcceptedHeader(header: unknown): boolean {
  return headerIdentityFault(header, undefined) === undefined && headerFieldsFault(snapshotJson(header)) === undefined
}

const CLOCKS: Partial<Record<OperationName, { name: string; rule: string }>> = {
  append: { name: 'time', rule: 'PROC-4' },
  resume: { name: 'now', rule: 'spec/00-processing.md, the operation table' },
  fork: { name: 'now', rule: 'spec/15-fork.md, Inputs' },
}

const ENCODINGS: readonly unknown[] = ['raw', 'zstd']

/** An unpaired surrogate: with the u flag a pair reads as one code point, which this does not match. */
const LONE_SURROGATE = /\p{Surrogate}/u

/** HDR-5: each side a snapshot as a request/header stores it, an object whose config is an object, of lossless values. */
function isHeaderSnapshot(value: unknown): boolean {
  return isRecord(value) && isRecord(value['config']) && isLossless(value)
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
  if ((operation === 'artifactPath' || operation === 'decodeJsonl') && given(input, 'encoding') && !ENCODINGS.includes(input['encoding'])) return 'its encoding is neither "raw" nor "zstd" (spec/19-jsonl.md)'
  if (operation === 'decodeJsonl' && given(input, 'text') === given(input, 'base64')) return 'it gives neither or both of text and base64 (spec/19-jsonl.md)'
  if (operation === 'decodeJsonl' && input['encoding'] === 'zstd' && given(input, 'text')) return 'it gives zstd bytes as text, not base64 (spec/19-jsonl.md)'
  if (operation === 'headerEquals' && !(isHeaderSnapshot(input['left']) && isHeaderSnapshot(input['right']))) return 'a side is no request-header snapshot of lossless values (HDR-5)'
  if (operation === 'decodeJsonl' && typeof input['text'] === 'string' && LONE_SURROGATE.test(input['text'])) return 'its text holds an unpaired surrogate, which names no bytes (JSONL-4)'
  if (operation === 'encodeJsonl' && !isBatchList(input['batches'])) return `its batches ${NO_BATCH_LIST} (JSONL-4)`
  if (operation === 'encodeJsonl' && !isAcceptedHeader(input['header'])) return 'its header is one chapter 03 refuses (JSONL-5)'
  if (operation === 'encodeJsonl' && !isLossless([input['header'], input['batches']])) return 'it holds a value outside the lossless JSON domain (spec/19-jsonl.md, encodeJsonl)'
  return undefined
}

const NO_BATCH_LIST = 'are absent or no array, or have a hole or a batch that is no array'

/** STORE-1, JSONL-4: batches are an array, with no hole, of arrays (a hole inside a batch is a record, STORE-4). */
function isBatchList(batches: unknown): batches is unknown[][] {
  if (!Array.isArray(batches)) return false
  // Counted by the elements it holds: a sparse array of length 2^32 - 1 would take hours index by index.
  const held = heldIndices(batches)
  return held.length === batches.length && held.every((index) => Array.isArray(batches[index]))
}

/**
 * The records of store's batches in order up to the first outside the lossless domain, which STORE-4
 * refuses before any other check (a hole of a batch is the record undefined, outside it), and whether
 * there is one.
 */
function recordsBeforeRefusal(batches: unknown[][]): { written: unknown[]; refused: boolean } {
  const written: unknown[] = []
  for (const batch of batches) {
    for (let index = 0; index < batch.length; index++) {
      if (!isLossless(batch[index])) return { written, refused: true }
      written.push(batch[index])
    }
  }
  return { written, refused: false }
}

/**
 * STORE-1: batches that are an array of arrays, whatever the header; then a header chapter 03 accepts
 * and batches that form a log a writer could have written (load accepts it with the header but for the
 * vocabulary phase, and it holds no legacy shape), or whose first fault is a value outside the lossless
 * domain, which STORE-4 refuses before any other check.
 */
function storeProblem(input: Input): string | undefined {
  const batches = input['batches']
  if (!isBatchList(batches)) return `its batches ${NO_BATCH_LIST}, whatever its header (STORE-1)`
  const header = input['header']
  if (!isLossless(header)) return undefined
  if (!isAcceptedHeader(header)) return 'its header is one chapter 03 refuses (STORE-1)'
  if (batches.length === 0 || batches.some((batch) => batch.length === 0)) return 'its batches are not one or more non-empty batches (STORE-1)'
  const { written, refused } = recordsBeforeRefusal(batches)
  const loaded = loadLog({ header: snapshotJson(header), events: written, checkVocabulary: false })
  if (!loaded.ok) return `load, the vocabulary phase aside, rejects the ${refused ? 'records before the first value outside the lossless domain' : 'log'} (${loaded.error.code}), so no writer could have written them (STORE-1)`
  // load upgrades legacy shapes without a word; a log in current shapes comes out as it went in.
  return jsonEqual(loaded.value, written) ? undefined : 'its log holds a legacy shape, which no writer writes (STORE-1)'
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

/** Why an operation over a log (append included) has no result set for the input's log, or undefined. */
function logProblem(operation: OperationName, input: Input): string | undefined {
  if (!Array.isArray(input['events'])) return 'its events is no array, outside every operation\'s domain (PROC-10)'
  // A window is checked as a log of its own, and its rejection passed on (PROC-9, ENV-10): any window is inside.
  if (operation === 'surface' && given(input, 'baseSeq')) return undefined
  const loaded = loadedLog(operation, input)
  if (!loaded.ok) {
    const where = loaded.error.seq === undefined ? '' : ` at seq ${loaded.error.seq}`
    const phase = operation === 'append' ? ', the vocabulary phase aside,' : ''
    return `load${phase} rejects the log (${loaded.error.code}${where}), and the spec defines ${operation} only over a log load accepts (PROC-9)`
  }
  return operation === 'requestHeader' || operation === 'requestContext' ? atSeqProblem(input, loaded.value as unknown[]) : undefined
}

/** Why the spec leaves the operation's result on this input open, or undefined when it sets one. */
export function openResult(operation: OperationName, input: Input): string | undefined {
  const member = memberProblem(operation, input)
  if (member !== undefined) return `${member}, outside the operation's domain`
  if (operation === 'store') return storeProblem(input)
  return OVER_LOADED_LOG.has(operation) || operation === 'append' ? logProblem(operation, input) : undefined
}
