// Runs one expanded vector case against one adapter. A case passes only when every step passes;
// an exception, a malformed result or a missing capability is never a pass.
import { operationResultOf, unsupportedOf, type Adapter } from './adapter.ts'
import { AdapterFailure } from './adapter-process.ts'
import { inputChange, recordInput } from './unchanged-input.ts'
import { inProcessCall } from './in-process-call.ts'
import { codeText, judge, withImpliedPlaces, type Mismatch, type OperationResult, type Verdict } from './expectations.ts'
import { DEFAULT_TIMEOUT_MS } from './subprocess-adapter.ts'
import { decodeTagged } from './tagged-values.ts'
import { specTerms, type Expectation, type VectorCase } from './vector-cases.ts'
import { errorMessage, shortened, TRACE_MOST } from './wording.ts'

export type CaseStatus = 'pass' | 'fail' | 'skip' | 'error'

export interface CaseOutcome {
  id: string
  status: CaseStatus
  /** 0-based index of the step that decided a fail or an error, and its operation. */
  step?: number
  operation?: string
  reason?: string
  /** For a fail: what the step expected and what it got. */
  diff?: Mismatch
  /** For a fail: the rejection's code, when spec/errors.md does not list it (the run warns of them). */
  unlistedCode?: string
  /** For a fail: the implementation answered that it cannot handle the step's input (the run warns of them). */
  unsupported?: true
  durationMs?: number
}

/** How the reason of a step the implementation cannot handle goes on, after the step; what it lacks follows. */
const CANNOT_HANDLE = 'the implementation cannot handle this input (it answered unsupported): '

/** What an operation that gives no verdict answers instead of a rejection with a code of its own. */
export const UNLISTED_CODE_RULE = 'no vector expects it, and an input the implementation cannot handle is answered as unsupported, a failure as an error, never as a rejection with a code of its own'

/** How a skip for missing operations starts; the operations follow, comma-separated. */
export const NOT_PROVIDED = 'operation(s) not provided: '
/** How a skip for an unclaimed profile ends when the adapter provides every operation of the case; they follow. */
export const PROVIDED_UNCLAIMED = ', though the adapter provides the operations of this case: '

/** Why the adapter cannot run this case, or undefined when it declares everything the case needs. */
export function missingCapability(adapter: Adapter, vector: VectorCase): string | undefined {
  const operations = [...new Set(vector.steps.map((step) => step.operation))]
  const missing = operations.filter((operation) => !adapter.operations[operation])
  if (!adapter.meta.profiles.includes(vector.profile)) {
    // An operation provided without its profile is most likely a profile forgotten in the claims.
    return `profile "${vector.profile}" not declared${missing.length === 0 ? `${PROVIDED_UNCLAIMED}${operations.join(', ')}` : ''}`
  }
  return missing.length > 0 ? `${NOT_PROVIDED}${missing.join(', ')}` : undefined
}

/**
 * The expectation as the step is judged: expected values may hold tagged values (a -0 in a decoded
 * record, say), compared as real values, and a rejection gets the places PROC-1 implies.
 */
function stepExpectation(expect: Expectation, operation: string): Expectation {
  return 'value' in expect ? { value: decodeTagged(expect.value) } : withImpliedPlaces(expect, operation)
}

export interface RunOptions {
  /**
   * How long an in-process operation may take before its step is a timeout error (default 5000 ms, as
   * for each reply of a subprocess adapter, which keeps its own timer).
   */
  timeoutMs?: number
  /**
   * The case stands for no vector (compare's one input): the operations are called with no case and
   * step, as the protocol's `run` leaves them out of a request that comes from no vector.
   */
  fromNoVector?: boolean
}

export async function runCase(adapter: Adapter, vector: VectorCase, options: RunOptions = {}): Promise<CaseOutcome> {
  const skip = missingCapability(adapter, vector)
  if (skip) return { id: vector.id, status: 'skip', reason: skip }
  const started = performance.now()
  const outcome = await runSteps(adapter, vector, options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.fromNoVector === true)
  return { ...outcome, durationMs: Math.round((performance.now() - started) * 1000) / 1000 }
}

/**
 * A subprocess adapter's failure, and an in-process operation's timeout, are reported as they are, so
 * that the reason starts with its kind (`timeout:`, `crash:`, `garbage:`, ..., spec/adapter-protocol.md);
 * anything else an operation throws is named with its stack.
 */
function errorReason(operation: string, error: unknown): string {
  if (error instanceof AdapterFailure) return error.message
  // A stack's start names the error and the innermost frames; a thrown string or message may be huge.
  return `${operation} threw: ${shortened(error instanceof Error ? error.stack ?? error.message : String(error), TRACE_MOST)}`
}

/**
 * A rejection whose code spec/errors.md does not list can be right for no vector: it fails, and says
 * why, since an input the implementation cannot handle is answered as unsupported, and a failure as an
 * error (spec/adapter-protocol.md); the run warns of such codes (results.ts), which a baseline may list.
 */
function withUnlistedCode(verdict: Verdict, result: OperationResult): Verdict {
  if (verdict.pass || result.ok || specTerms().rejectionCodes.has(result.error.code)) return verdict
  const code = codeText(result.error.code)
  const why = `${code} is no rejection code of spec/errors.md: ${UNLISTED_CODE_RULE}`
  return { ...verdict, reason: `${verdict.reason} (${why})`, unlistedCode: code }
}

/**
 * The verdict on one step's result; a result the runner cannot inspect (a revoked proxy, a getter that
 * throws) is an error, and an input the implementation cannot handle is neither a verdict nor an error.
 */
function judgeStep(result: unknown, expect: Expectation, operation: string): Verdict | { error: string } | { unsupported: string } {
  const expected = stepExpectation(expect, operation)
  try {
    const lacking = unsupportedOf(result)
    if (lacking !== undefined) return { unsupported: lacking }
    const checked = operationResultOf(result)
    if (checked === undefined) return { error: `${operation} returned no operation result: ${shortened(String(JSON.stringify(result)), 200)}` }
    return withUnlistedCode(judge(checked, expected), checked)
  } catch (error) {
    return { error: `${operation}: the reply's value cannot be compared: ${errorMessage(error)}` }
  }
}

async function runSteps(adapter: Adapter, vector: VectorCase, timeoutMs: number, fromNoVector: boolean): Promise<CaseOutcome> {
  for (const [index, step] of vector.steps.entries()) {
    const context = fromNoVector ? undefined : { caseId: vector.id, step: index }
    let result: unknown
    try {
      if (adapter.meta.transport === 'subprocess') {
        result = await adapter.operations[step.operation]!(step.input, context)
      } else {
        const input = decodeTagged(step.input) as Record<string, unknown>
        const before = recordInput(input)
        // Called as a method of the operations, which may be an object whose methods use `this`. The
        // result comes back uninspected: inspecting it is judgeStep's to do.
        const call = (): unknown => adapter.operations[step.operation]!(input, context)
        result = (await inProcessCall(call, timeoutMs, context === undefined ? step.operation : `${step.operation} (${vector.id} step ${index})`)).value
        const change = inputChange(before)
        if (change !== undefined) {
          const reason = `${step.operation} changed its input (an operation must leave it as it was): ${change}`
          return { id: vector.id, status: 'error', step: index, operation: step.operation, reason }
        }
      }
    } catch (error) {
      return { id: vector.id, status: 'error', step: index, operation: step.operation, reason: errorReason(step.operation, error) }
    }
    const verdict = judgeStep(result, step.expect, step.operation)
    if ('error' in verdict) return { id: vector.id, status: 'error', step: index, operation: step.operation, reason: verdict.error }
    if ('unsupported' in verdict) {
      const reason = `step ${index} (${step.operation}): ${CANNOT_HANDLE}${shortened(verdict.unsupported, TRACE_MOST)}`
      return { id: vector.id, status: 'fail', step: index, operation: step.operation, reason, unsupported: true }
    }
    if (!verdict.pass) {
      const unlisted = verdict.unlistedCode === undefined ? {} : { unlistedCode: verdict.unlistedCode }
      return { id: vector.id, status: 'fail', step: index, operation: step.operation, reason: `step ${index} (${step.operation}): ${verdict.reason}`, diff: verdict.diff, ...unlisted }
    }
  }
  return { id: vector.id, status: 'pass' }
}
