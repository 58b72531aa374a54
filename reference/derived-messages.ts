/**
 * Chapter 08: the derived message history: each current surface node, in surface order, projected
 * to its message; an assistant message with empty content projects to nothing.
 */
import { isRecord } from './lossless-json.ts'
import { messageOf } from './vocabulary.ts'
import { foldSurface } from './surface.ts'
import type { SessionEvent } from './envelope.ts'

/** The message one event derives to, or null (log-only event, or empty assistant content). */
export function deriveEventMessage(event: SessionEvent): unknown {
  switch (event.type) {
    case 'user/message':
    case 'tool/result':
      return messageOf(event.type, event.data)
    case 'assistant/message': {
      const message = messageOf(event.type, event.data)
      // Stryker disable next-line ConditionalExpression,LogicalOperator: load has checked that every surface event's message is an object with array content
      if (!isRecord(message) || !Array.isArray(message['content'])) return message
      return message['content'].length === 0 ? null : message
    }
    // Stryker disable next-line ConditionalExpression: only surface nodes are derived, and every node is a user/message, assistant/message or tool/result
    default:
      return null
  }
}

export function deriveMessages(events: readonly SessionEvent[]): unknown[] {
  const messages: unknown[] = []
  for (const seq of foldSurface(events).nodes) {
    const event = events[seq]
    // Stryker disable next-line ConditionalExpression: every surface node is an event of the loaded log
    const message = event === undefined ? null : deriveEventMessage(event)
    if (message !== null) messages.push(message)
  }
  return messages
}
