/**
 * Chapter 07: tool-result rewrites. A `tool/result` that replaces must shadow exactly one current
 * `tool/result` node and may change nothing but the nested content of its tool-result block.
 */
import { fault, type Fault } from './result.ts'
import { isRecord, jsonEqual, type JsonRecord } from './lossless-json.ts'
import type { SessionEvent } from './envelope.ts'

/** `data` with `message.content[0].content` blanked; only that member may differ. */
export function withBlankedResultContent(data: unknown): unknown {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: both sides are tool/result events whose data and message load has checked to be objects
  if (!isRecord(data) || !isRecord(data['message'])) return data
  const message = data['message']
  const content = message['content']
  // Stryker disable next-line ConditionalExpression,LogicalOperator: load checks that a tool/result message holds exactly one tool-result block
  if (!Array.isArray(content) || !isRecord(content[0])) return data
  const block: JsonRecord = { ...content[0], content: null }
  return { ...data, message: { ...message, content: [block] } }
}

/** REWR-6 order; `eventAt` finds the event of a current node by its seq. */
export function rewriteFault(event: SessionEvent, shadowedSeqs: readonly number[], eventAt: (seq: number) => SessionEvent | undefined): Fault | undefined {
  if (event.type !== 'tool/result') return undefined
  if (shadowedSeqs.length !== 1) {
    return fault('REWRITE_SPAN_INVALID', `a tool/result replacement must shadow exactly one node, not ${shadowedSeqs.length}`)
  }
  const original = eventAt(shadowedSeqs[0] as number)
  // Stryker disable next-line OptionalChaining: a shadowed seq is a node of the surface, so its event exists
  if (original?.type !== 'tool/result') return fault('REWRITE_TARGET_INVALID', 'a tool/result replacement must shadow a tool/result')
  if (!jsonEqual(withBlankedResultContent(original.data), withBlankedResultContent(event.data))) {
    return fault('REWRITE_DATA_CHANGED', 'a tool/result replacement may change only the tool-result content')
  }
  return undefined
}
