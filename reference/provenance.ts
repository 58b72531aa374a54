/**
 * Chapter 06: provenance. `sourceEventSeqs` names the earlier events a surface event was made from.
 * Checks run in this order: array, empty-array rule, element type, duplicates, earlier-only, coverage.
 */
import { fault, type Fault } from './result.ts'
import { hasOwn, isNonNegativeSafeInteger } from './lossless-json.ts'
import type { SessionEvent } from './envelope.ts'

/** Only a known-empty provider stream may cite nothing. */
const EMPTY_SOURCES_ALLOWED = 'assistant/message'

/** Writers cite in ascending order; a strictly ascending list cites no seq twice. */
// Stryker disable next-line BlockStatement: a fast path: whenever it answers no, the Set comparison below decides, with the same result
function isStrictlyAscending(sources: readonly number[]): boolean {
  // Stryker disable next-line EqualityOperator: with <=, the extra round compares sources[length], undefined, which is never <= a number
  for (let index = 1; index < sources.length; index++) {
    // Stryker disable next-line ConditionalExpression: a fast path: whenever it answers no, the Set comparison below decides, with the same result
    if ((sources[index] as number) <= (sources[index - 1] as number)) return false
  }
  // Stryker disable next-line BooleanLiteral: a fast path: whenever it answers no, the Set comparison below decides, with the same result
  return true
}

function firstCitationFault(sources: readonly unknown[], ownSeq: number): Fault | undefined {
  if (!sources.every(isNonNegativeSafeInteger)) {
    return fault('PROVENANCE_ELEMENT_INVALID', 'sourceEventSeqs elements must be non-negative safe integers')
  }
  const seqs = sources as readonly number[]
  if (!isStrictlyAscending(seqs) && new Set(seqs).size !== seqs.length) return fault('PROVENANCE_DUPLICATE', 'sourceEventSeqs cites a seq twice')
  const late = sources.find(source => (source as number) >= ownSeq)
  if (late !== undefined) return fault('PROVENANCE_NOT_EARLIER', `sourceEventSeqs cites ${String(late)}, not before ${ownSeq}`)
  return undefined
}

/** `shadowedSeqs` is empty for an append and the replaced nodes for a replace. */
export function provenanceFault(event: SessionEvent, shadowedSeqs: readonly number[]): Fault | undefined {
  const cited = new Set<unknown>()
  if (hasOwn(event, 'sourceEventSeqs')) {
    const sources = event.sourceEventSeqs
    if (!Array.isArray(sources)) return fault('PROVENANCE_NOT_ARRAY', 'sourceEventSeqs must be an array')
    if (sources.length === 0 && event.type !== EMPTY_SOURCES_ALLOWED) {
      return fault('PROVENANCE_EMPTY', `sourceEventSeqs may be empty only on ${EMPTY_SOURCES_ALLOWED}`)
    }
    const found = firstCitationFault(sources, event.seq)
    if (found !== undefined) return found
    // Stryker disable next-line ConditionalExpression,EqualityOperator: with no shadowed seqs the cited set is never read
    if (shadowedSeqs.length > 0) for (const source of sources) cited.add(source)
  }
  const missing = shadowedSeqs.filter(seq => !cited.has(seq))
  if (missing.length > 0) return fault('PROVENANCE_INCOMPLETE', `the replacement does not cite shadowed ${missing.join(', ')}`)
  return undefined
}
