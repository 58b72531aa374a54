// One probe through the reference and the adapter, judged as a vector step would be: the reference's
// result is the expectation (conformance/expectations.ts: codes compared, messages never; seq and line
// compared when the reference gives them, and no line taken from an operation that reads no stored
// artifact). A disagreement gets a signature, a one-line class that stays the same while the shrinker
// works and that --known files match.
import { operationResultOf, unsupportedOf, type Adapter } from '../adapter.ts'
import { inProcessCall } from '../in-process-call.ts'
import { inputChange, recordInput } from '../unchanged-input.ts'
import { expectedRejectionOf, judge, withImpliedPlaces, type OperationResult } from '../expectations.ts'
import { encodeTagged } from '../protocol.ts'
import { isNonNegativeSafeInteger, isRecord } from '../../reference/lossless-json.ts'
import type { Expectation } from '../vector-cases.ts'
import { probeInput, type Probe, type ProbeVariant } from './probes.ts'
import { openResult } from '../input-domain.ts'
import { DEFAULT_TIMEOUT_MS } from '../subprocess-adapter.ts'
import { errorMessage, shortened } from '../wording.ts'

/** What an adapter did with a probe: a result, no answer (an error), or an answer that it cannot handle the input. */
export type Outcome = { kind: 'result'; result: OperationResult } | { kind: 'error'; message: string } | { kind: 'unsupported'; lacking: string }

/** What the adapter did, in a disagreement's class, when it answered that it cannot handle the input. */
export const CANNOT_HANDLE_CLASS = 'cannot handle it'

export interface Disagreement {
  operation: string
  /** What the reference did: `accepts` or `rejects CODE`. */
  reference: string
  /**
   * What the adapter did instead: `accepts`, `rejects CODE`, `rejects CODE at another seq`, `differs at
   * PATH`, `lists …`, `cannot handle it` when it answered unsupported, or `fails: KIND` when it gave no
   * answer (FAILURE_KINDS).
   */
  adapter: string
  /** The adapter gave no answer: it threw, timed out, crashed, or replied with nothing the judge can read. */
  failure?: true
  /** The judge's reason, or the error the adapter raised. */
  detail: string
  /** The seq where the two sides part, when there is one. */
  divergingSeq?: number
  /** The probe's log was in older shapes (FuzzRun.olderShapes): a class of its own. */
  olderShapes?: true
  /** The probe left the shapes producers write on purpose (Probe.variant): a class of its own. */
  variant?: ProbeVariant
  /**
   * The probe's log holds a record that is no object (ENV-1): a class of its own, so that a class an
   * implementation has only on such logs (a crash reading the record's members) cannot hide one on logs
   * of objects.
   */
  recordNotObject?: true
  expected: OperationResult
  actual: Outcome
}

/**
 * What the adapter did, as a class names it: with the probe's variant, so that a known class of such
 * probes cannot hide a departure on the shapes producers write.
 */
export function adapterSide(disagreement: Pick<Disagreement, 'adapter' | 'variant'>): string {
  return disagreement.variant === undefined ? disagreement.adapter : `${disagreement.adapter} (${disagreement.variant})`
}

export function signatureOf(disagreement: Pick<Disagreement, 'operation' | 'reference' | 'adapter' | 'olderShapes' | 'variant' | 'recordNotObject'>): string {
  const shapes = disagreement.olderShapes === true ? ' (older shapes)' : ''
  const records = disagreement.recordNotObject === true ? ' (a record no object)' : ''
  return `${disagreement.operation}${shapes}${records}: reference ${disagreement.reference}, adapter ${adapterSide(disagreement)}`
}

/** The shapes of the log a disagreement was found on, as --known files match them. */
export function shapesOf(disagreement: Pick<Disagreement, 'olderShapes'>): 'older' | 'current' {
  return disagreement.olderShapes === true ? 'older' : 'current'
}

/** Whether every record of the log a disagreement was found on is an object, as --known files match it. */
export function recordsOf(disagreement: Pick<Disagreement, 'recordNotObject'>): 'objects' | 'not-all-objects' {
  return disagreement.recordNotObject === true ? 'not-all-objects' : 'objects'
}

function expectationOf(result: OperationResult, operation: string): Expectation {
  return result.ok ? { value: result.value } : withImpliedPlaces({ reject: expectedRejectionOf(result.error) }, operation)
}


/**
 * The kinds of failure, each the start of an error outcome's message: the runner's reasons for a
 * subprocess adapter (spec/adapter-protocol.md), a reply that is no operation result, or one the judge
 * cannot inspect. Any other error is an exception the operation threw.
 */
const FAILURE_KINDS = ['timeout', 'crash', 'garbage', 'invalid reply', 'adapter error', 'no operation result', 'uninspectable reply'] as const

function failureOf(message: string): string {
  return `fails: ${FAILURE_KINDS.find(kind => message.startsWith(`${kind}:`)) ?? 'throws'}`
}

/** A drawn input in the protocol's tagged form; throws, as the fuzzer's own fault, when it has none. */
function sendable(input: Record<string, unknown>, operation: string): Record<string, unknown> {
  try {
    return encodeTagged(input) as Record<string, unknown>
  } catch (error) {
    throw new Error(`the fuzzer drew a ${operation} input the adapter protocol cannot carry (${errorMessage(error)}); this is a fault of the suite, not of the adapter`)
  }
}

/**
 * Runs an operation; a throw, a malformed result or, for an in-process adapter, no answer within
 * `timeoutMs` is an error outcome, never a result. (A subprocess adapter keeps its own timeout.)
 */
export async function callOperation(adapter: Adapter, probe: Probe, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Outcome> {
  const operation = adapter.operations[probe.operation]
  if (operation === undefined) return { kind: 'error', message: `${probe.operation} is not provided` }
  // A copy per call; an in-process call's is compared after it, as the runner does a step's
  // (unchanged-input.ts). An input the fuzzer cannot copy or send is its own fault, never the adapter's.
  const input = structuredClone(probeInput(probe))
  const sent = adapter.meta.transport === 'subprocess' ? sendable(input, probe.operation) : undefined
  try {
    if (sent !== undefined) return outcomeOf(await operation.call(adapter.operations, sent))
    const before = recordInput(input)
    // Called as a method of the operations, which may be an object whose methods use `this`.
    const result: unknown = (await inProcessCall(() => operation.call(adapter.operations, input), timeoutMs, probe.operation)).value
    const change = inputChange(before)
    return change === undefined ? outcomeOf(result) : { kind: 'error', message: `${probe.operation} changed its input: ${change}` }
  } catch (error) {
    return { kind: 'error', message: errorMessage(error) }
  }
}

/** A reply that is no result, for people: in tagged form, as the fuzz inputs now hold values JSON cannot carry. */
function replyText(result: unknown): string {
  try {
    return String(JSON.stringify(encodeTagged(result)))
  } catch {
    return String(result)
  }
}

/** An operation's reply as an outcome; one that throws when it is read is no answer. */
function outcomeOf(result: unknown): Outcome {
  try {
    const lacking = unsupportedOf(result)
    if (lacking !== undefined) return { kind: 'unsupported', lacking }
    const checked = operationResultOf(result)
    if (checked !== undefined) return { kind: 'result', result: checked }
    return { kind: 'error', message: `no operation result: ${shortened(replyText(result), 200)}` }
  } catch (error) {
    return { kind: 'error', message: `uninspectable reply: ${errorMessage(error)}` }
  }
}

function referenceText(result: OperationResult): string {
  return result.ok ? 'accepts' : `rejects ${result.error.code}`
}

/** The path with every index generalized, so one class covers a difference wherever it falls. */
function generalPath(path: string): string {
  return path.replace(/\[\d+\]/g, '[]')
}

interface Violation {
  code: string
  seq: number
}

function violationsOf(value: unknown): Violation[] | undefined {
  const list = typeof value === 'object' && value !== null ? (value as { violations?: unknown }).violations : undefined
  return Array.isArray(list) ? list as Violation[] : undefined
}

/** For relations: the first violation the two lists do not share, described from the adapter's side. */
function violationDifference(expected: Violation[], actual: Violation[]): { text: string; seq: number | undefined } | undefined {
  const length = Math.max(expected.length, actual.length)
  for (let index = 0; index < length; index += 1) {
    const want = expected[index]
    const got = actual[index]
    if (want?.code === got?.code && Object.is(want?.seq, got?.seq)) continue
    const later = index > 0 ? 'a later ' : ''
    // The adapter's violations are its own: a seq of another kind names no place.
    const seqs = [want?.seq, got?.seq].filter(isNonNegativeSafeInteger)
    const where = seqs.length === 0 ? undefined : Math.min(...seqs)
    if (got === undefined) return { text: `lacks ${later}violation ${want!.code}`, seq: where }
    if (want === undefined) return { text: `adds ${later}violation ${got.code}`, seq: where }
    if (want.code === got.code) return { text: `lists ${later}violation ${want.code} at another seq`, seq: where }
    return { text: `lists ${later}violation ${got.code} for ${want.code}`, seq: where }
  }
  return undefined
}

function rejectionSeq(result: OperationResult): number | undefined {
  return result.ok ? undefined : result.error.seq
}

/** How the adapter's answer departs from the expectation, as a class and the diverging seq. */
function departure(operation: string, expected: OperationResult, actual: OperationResult, divergingSeq: number | undefined, path: string): { adapter: string; seq: number | undefined } {
  if (!actual.ok) {
    const seq = rejectionSeq(expected) ?? actual.error.seq
    if (expected.ok || expected.error.code !== actual.error.code) return { adapter: `rejects ${actual.error.code}`, seq }
    const place = Object.is(expected.error.seq, actual.error.seq) ? 'line' : 'seq'
    const differing = [expected.error.seq, actual.error.seq].filter(isNonNegativeSafeInteger)
    return { adapter: `rejects ${actual.error.code} at another ${place}`, seq: differing.length > 0 ? Math.min(...differing) : undefined }
  }
  if (!expected.ok) return { adapter: 'accepts', seq: expected.error.seq }
  const violations = operation === 'relations' ? [violationsOf(expected.value), violationsOf(actual.value)] : []
  if (violations[0] !== undefined && violations[1] !== undefined) {
    const difference = violationDifference(violations[0], violations[1])
    if (difference !== undefined) return { adapter: difference.text, seq: difference.seq }
  }
  return { adapter: `differs at ${generalPath(path)}`, seq: divergingSeq }
}

/** The disagreement between the reference's result and the adapter's outcome, if any. */
export function disagreement(operation: string, expected: OperationResult, actual: Outcome): Disagreement | undefined {
  const reference = referenceText(expected)
  // No answer diverges nowhere in particular: a failure names no seq (the reference's rejection is in `reference`).
  const failure = (message: string): Disagreement => ({
    operation, reference, adapter: failureOf(message), failure: true, detail: message, expected, actual,
  })
  if (actual.kind === 'error') return failure(actual.message)
  // An answer, not a failure: a known class may cover it, as it covers a wrong verdict.
  if (actual.kind === 'unsupported') return { operation, reference, adapter: CANNOT_HANDLE_CLASS, detail: `it answered unsupported: ${shortened(actual.lacking, 200)}`, expected, actual }
  let verdict: ReturnType<typeof judge>
  try {
    verdict = judge(actual.result, expectationOf(expected, operation))
  } catch (error) {
    // A value that throws when it is read (a revoked proxy, a throwing getter) is no answer.
    return failure(`uninspectable reply: ${errorMessage(error)}`)
  }
  if (verdict.pass) return undefined
  const { adapter, seq } = departure(operation, expected, actual.result, verdict.diff.divergingSeq, verdict.diff.path)
  // A seq the adapter gave (its rejection's) may be any number; only a seq of a log names a place.
  return { operation, reference, adapter, detail: verdict.reason, ...(isNonNegativeSafeInteger(seq) ? { divergingSeq: seq } : {}), expected, actual }
}

/** A probe's outcome: not compared when the spec leaves its result open, else the disagreement found, if any. */
export type ProbeOutcome = { compared: false } | { compared: true; rejected: boolean; found: Disagreement | undefined }

/**
 * Runs a probe through the reference, and through the adapter when the spec defines the result.
 * Throws when the reference itself fails: that is the fuzzer's fault, not the adapter's.
 */
export async function probeOutcome(referenceAdapter: Adapter, adapter: Adapter, probe: Probe, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<ProbeOutcome> {
  const expected = await callOperation(referenceAdapter, probe)
  if (expected.kind !== 'result') throw new Error(`the reference failed on ${probe.operation}: ${expected.kind === 'error' ? expected.message : `it answered unsupported: ${expected.lacking}`}`)
  // Outside the operation's domain any answer conforms (conformance/input-domain.ts): nothing to compare.
  if (openResult(probe.operation, structuredClone(probeInput(probe))) !== undefined) return { compared: false }
  const found = disagreement(probe.operation, expected.result, await callOperation(adapter, probe, timeoutMs))
  const rejected = !expected.result.ok
  if (found === undefined) return { compared: true, rejected, found: undefined }
  return {
    compared: true,
    rejected,
    found: {
      ...found,
      ...(probe.olderShapes === true ? { olderShapes: true as const } : {}),
      ...(probe.variant !== undefined && found.failure !== true ? { variant: probe.variant } : {}),
      ...(probe.events.some(record => !isRecord(record)) ? { recordNotObject: true as const } : {}),
    },
  }
}

/** A probe's disagreement; undefined when the sides agree or when the spec leaves the result open. */
export async function compareProbe(referenceAdapter: Adapter, adapter: Adapter, probe: Probe, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Disagreement | undefined> {
  const outcome = await probeOutcome(referenceAdapter, adapter, probe, timeoutMs)
  return outcome.compared ? outcome.found : undefined
}
