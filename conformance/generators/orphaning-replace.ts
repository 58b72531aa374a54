// A turn whose user message replaces an assistant message holding tool calls and leaves their results
// on the surface. Load and the relations accept such a log (no relation checks the balance of a
// replaced range), but every balance question on its surface is rejected with REGION_ORPHAN_RESULT
// (REGION-2). The log model never writes one, since it replaces only legal regions (REGION-7).
import type { Chooser } from './choices.ts'
import { someText, userMessage, type LogEvent } from './events.ts'
import type { GeneratedLog } from './log-model.ts'
import { cutCounters, isRecord, surfaceTimeline } from './surface-model.ts'

function lastTurn(events: readonly LogEvent[]): number {
  const turns = events.flatMap(event => (event.type === 'turn/start' && isRecord(event.data) && typeof event.data['turn'] === 'number' ? [event.data['turn']] : []))
  return Math.max(0, ...turns)
}

/**
 * The log with one more turn, whose user message replaces an assistant node with calls so that a result
 * after it on the surface is left without one; undefined when the log does not end at rest or has no
 * such node.
 */
export function withResultOrphaned(log: GeneratedLog, chooser: Chooser): LogEvent[] | undefined {
  if (log.facts.ending !== 'clean') return undefined
  const nodes = surfaceTimeline(log.events).at(-1)!
  // A call left unanswered earlier (PAIR-6) keeps the counter up, so not every such replace orphans.
  const orphans = (index: number): boolean => cutCounters(nodes.map((node, at) => (at === index ? { ...node, weight: 0 } : node))).some(counter => counter < 0)
  const targets = nodes.filter((node, index) => node.weight > 0 && orphans(index))
  if (targets.length === 0) return undefined
  const target = targets[chooser.int(targets.length)]!.seq
  const turn = lastTurn(log.events) + 1
  const seq = log.events.length
  const time = (log.events.at(-1)?.time ?? log.header.createdAt) + 1
  const replacing = userMessage(`msg-${seq + 1}`, someText(chooser))
  return [
    ...log.events,
    { type: 'turn/start', seq, time, data: { turn } },
    { type: replacing.type, seq: seq + 1, time, data: replacing.data, surfaceOp: { op: 'replace', start: target, end: target }, sourceEventSeqs: [target] },
    { type: 'turn/end', seq: seq + 2, time, data: { turn, reason: { kind: 'completed' } } },
  ]
}
