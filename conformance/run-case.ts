// Runs one expanded vector case against one adapter. A case passes only when every step passes;
// an exception, a malformed result or a missing capability is never a pass.
import { isOperationResult, type Adapter } from './adapter.ts'
import { AdapterFailure } from './adapter-process.ts'
import { judge, type Mismatch } from './expectations.ts'
import { decodeTagged } from './tagged-values.ts'
import type { Expectation, VectorCase } from './vector-cases.ts'
import { shortened } from './wording.ts'

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
  durationMs?: number
}

/** How a skip for missing operations starts; the operations follow, comma-separated. */
export const NOT_PROVIDED = 'operation(s) not provided: '

/** Why the adapter cannot run this case, or undefined when it declares everything the case needs. */
export function missingCapability(adapter: Adapter, vector: VectorCase): string | undefined {
  if (!adapter.meta.profiles.includes(vector.profile)) return `profile "${vector.profile}" not declared`
  const missing = vector.steps.map((step) => step.operation).filter((operation) => !adapter.operations[operation])
  return missing.length > 0 ? `${NOT_PROVIDED}${[...new Set(missing)].join(', ')}` : undefined
}

/** Expected values may hold tagged values too (a -0 in a decoded record, say): compare real values. */
function decodedExpectation(expect: Expectation): Expectation {
  return 'value' in expect ? { value: decodeTagged(expect.value) } : expect
}

export async function runCase(adapter: Adapter, vector: VectorCase): Promise<CaseOutcome> {
  const skip = missingCapability(adapter, vector)
  if (skip) return { id: vector.id, status: 'skip', reason: skip }
  const started = performance.now()
  const outcome = await runSteps(adapter, vector)
  return { ...outcome, durationMs: Math.round((performance.now() - started) * 1000) / 1000 }
}

/**
 * A subprocess adapter's failure is reported as it is, so that the reason starts with its kind
 * (`timeout:`, `crash:`, `garbage:`, ..., spec/adapter-protocol.md); anything else an operation throws
 * is named with its stack.
 */
function errorReason(operation: string, error: unknown): string {
  if (error instanceof AdapterFailure) return error.message
  return `${operation} threw: ${error instanceof Error ? error.stack ?? error.message : String(error)}`
}

async function runSteps(adapter: Adapter, vector: VectorCase): Promise<CaseOutcome> {
  for (const [index, step] of vector.steps.entries()) {
    let result: unknown
    try {
      const input = adapter.meta.transport === 'subprocess' ? step.input : decodeTagged(step.input) as Record<string, unknown>
      result = await adapter.operations[step.operation]!(input, { caseId: vector.id, step: index })
    } catch (error) {
      return { id: vector.id, status: 'error', step: index, operation: step.operation, reason: errorReason(step.operation, error) }
    }
    if (!isOperationResult(result)) {
      return { id: vector.id, status: 'error', step: index, operation: step.operation, reason: `${step.operation} returned no operation result: ${shortened(String(JSON.stringify(result)), 200)}` }
    }
    const verdict = judge(result, decodedExpectation(step.expect))
    if (!verdict.pass) {
      return { id: vector.id, status: 'fail', step: index, operation: step.operation, reason: `step ${index} (${step.operation}): ${verdict.reason}`, diff: verdict.diff }
    }
  }
  return { id: vector.id, status: 'pass' }
}
