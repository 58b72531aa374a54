// The messages probe, one plan in four, over a valid log edited where the derived history must not
// notice: either every replacing user/message cites one more earlier message event than it shadows
// (PROV-6, PROV-7: further sources are allowed, and citing shadows nothing), or every user/message
// carries a member holding null (VOC-3, DER-3: projected with the rest). The generators write
// neither: a checkpoint cites its bracket and what it shadows (PROV-10), and no message member holds
// null. The edit is drawn from a seed of the run's plan, as the headerEquals pairs are
// (header-pairs.ts), so the fuzzer's other draws stay as they were; a disagreement is an ordinary one.
import { isRecord } from '../../reference/lossless-json.ts'
import { saltedChooser } from '../generators/index.ts'

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const MESSAGE_EDIT_SALT = 0x4d534745

const MESSAGE_TYPES = new Set(['user/message', 'assistant/message', 'tool/result'])

type EventRecord = Record<string, unknown>

function isReplacingUserMessage(event: unknown): event is EventRecord {
  return isRecord(event) && event['type'] === 'user/message' && isRecord(event['surfaceOp']) && Array.isArray(event['sourceEventSeqs'])
}

/** The replacing event citing also the earliest message event before it that it does not cite yet. */
function citingOneMore(events: readonly unknown[], event: EventRecord): EventRecord {
  const cited = event['sourceEventSeqs'] as unknown[]
  const extra = events.find(earlier => isRecord(earlier) && MESSAGE_TYPES.has(earlier['type'] as string)
    && (earlier['seq'] as number) < (event['seq'] as number) && !cited.includes(earlier['seq']))
  return isRecord(extra) ? { ...event, sourceEventSeqs: [...cited, extra['seq']] } : event
}

/** The user/message with a member holding null beside its message fields. */
function withNullMember(event: unknown): unknown {
  if (!isRecord(event) || event['type'] !== 'user/message' || !isRecord(event['data'])) return event
  return { ...event, data: { ...event['data'], meta: null } }
}

/**
 * The log edited as drawn, or undefined when the draw keeps it or the edit would change nothing (no
 * replacing user/message to cite more, no user/message to carry null). The draws come before any look
 * at the log, so a shrunk log draws alike.
 */
export function withMessageEdgeEdits(events: readonly unknown[], planSeed: number): unknown[] | undefined {
  const chooser = saltedChooser(planSeed, MESSAGE_EDIT_SALT)
  if (chooser.int(4) !== 0) return undefined
  const citesMore = chooser.int(2) === 0
  const edited = citesMore
    ? events.map(event => (isReplacingUserMessage(event) ? citingOneMore(events, event) : event))
    : events.map(withNullMember)
  return edited.some((event, index) => event !== events[index]) ? edited : undefined
}
