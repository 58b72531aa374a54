// The load probe, one plan in eight of those the other load edits leave, over a valid log in current
// shapes with one event given a fault that only load's early phases find (PROC-2): a `turn/start` whose
// trigger is malformed (`null`, 5 or `{"kind": 5}`: LEGACY-5, LEGACY_SHAPE_MALFORMED), a
// `request/header` whose reason is `fallback` (LEGACY-2), a `user/message` whose id is empty (VOC-9) or
// whose content is a string (VOC-12), or an `assistant/message` whose source has no provider (VOC-11).
// The operators break logs in other ways, and the generators write none of these, so without this edit
// load met them only through append's candidates: a reader that upgrades a malformed trigger leniently,
// or checks a message's role and call id but not its id, source or content, met no probe. Drawn from a
// seed of the run's plan, as the headerEquals pairs are (header-pairs.ts), so the fuzzer's other draws
// stay as they were and a shrunk log draws alike.
import { saltedChooser, type Chooser } from '../generators/index.ts'
import { isRecord } from '../../reference/lossless-json.ts'
import { atOneOf, indexesWhere, typeOf } from './record-edits.ts'

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const SHAPE_FAULT_SALT = 0x53484654

type EventRecord = Record<string, unknown>

/** The data of an event that is an object, or an empty one. */
const dataOf = (event: EventRecord): EventRecord => (isRecord(event['data']) ? event['data'] : {})

/** One fault of each kind: the type it applies to, and the event with it. */
const FAULTS: readonly { type: string; fault: (event: EventRecord, chooser: Chooser) => EventRecord }[] = [
  { type: 'turn/start', fault: (event, chooser) => ({ ...event, data: { ...dataOf(event), trigger: [null, 5, { kind: 5 }][chooser.int(3)] } }) },
  { type: 'request/header', fault: event => ({ ...event, data: { ...dataOf(event), reason: 'fallback' } }) },
  { type: 'user/message', fault: event => ({ ...event, data: { ...dataOf(event), id: '' } }) },
  { type: 'user/message', fault: event => ({ ...event, data: { ...dataOf(event), content: 'a string' } }) },
  {
    type: 'assistant/message',
    fault: (event) => {
      const message = isRecord(dataOf(event)['message']) ? dataOf(event)['message'] as EventRecord : {}
      const { provider: _provider, ...source } = isRecord(message['source']) ? message['source'] : {}
      return { ...event, data: { ...dataOf(event), message: { ...message, source } } }
    },
  },
]

/**
 * The log with one event of the drawn kind given its fault; undefined when the draw keeps the log or it
 * holds no event of that type. Whether to edit, and which fault, is drawn before any look at the log.
 */
export function withShapeFault(events: readonly unknown[], planSeed: number): unknown[] | undefined {
  const chooser = saltedChooser(planSeed, SHAPE_FAULT_SALT)
  if (chooser.int(8) !== 0) return undefined
  const { type, fault } = FAULTS[chooser.int(FAULTS.length)]!
  return atOneOf(events, indexesWhere(events, event => typeOf(event) === type), chooser, event => fault(event, chooser))
}
