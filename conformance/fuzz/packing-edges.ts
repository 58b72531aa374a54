// The encodeJsonl probe, one plan in four, over batches edited where ROW-5 and JSONL-8 say exactly what
// a writer writes and the generators never go: a drawn chunk marked `ignorable: false` (ROW-5 item 1:
// an event with `ignorable` is never packed, whatever its value, so it closes its run and is written
// verbatim); every chunk's turn and step raised by a half (item 3 asks numbers, not integers, so the
// runs pack as before); or a drawn event's data given the members "01" and "4294967295" after its
// others (JSONL-8: digit strings that are no array index keep their stored place, where a writer taking
// every digit name for an index would move them first). The draw comes from a seed of the run's plan,
// as the headerEquals pairs do (header-pairs.ts), so the fuzzer's other draws stay as they were.
import { isRecord } from '../../reference/lossless-json.ts'
import { saltedChooser, type Chooser } from '../generators/index.ts'

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const PACKING_EDGE_SALT = 0x5041434b

type Batches = readonly (readonly unknown[])[]

const isChunk = (event: unknown): event is Record<string, unknown> => isRecord(event) && event['type'] === 'assistant/chunk'

/** The batches with `edit` applied to the drawn one of the events `eligible` picks; as they are when none is. */
function atDrawnEvent(batches: Batches, chooser: Chooser, eligible: (event: unknown) => boolean, edit: (event: Record<string, unknown>) => unknown): Batches {
  const count = batches.reduce((sum, batch) => sum + batch.filter(eligible).length, 0)
  if (count === 0) return batches
  let left = chooser.int(count)
  return batches.map(batch => batch.map(event => (eligible(event) && left-- === 0 ? edit(event as Record<string, unknown>) : event)))
}

/** A drawn chunk marked `ignorable: false`. */
const ignorableFalseChunk = (batches: Batches, chooser: Chooser): Batches =>
  atDrawnEvent(batches, chooser, isChunk, event => ({ ...event, ignorable: false }))

/** Every chunk whose turn and step are numbers with both raised by a half. */
function halfTurnsAndSteps(batches: Batches): Batches {
  return batches.map(batch => batch.map(event => {
    if (!isChunk(event) || !isRecord(event['data'])) return event
    const { turn, step } = event['data']
    if (typeof turn !== 'number' || typeof step !== 'number') return event
    return { ...event, data: { ...event['data'], turn: turn + 0.5, step: step + 0.5 } }
  }))
}

/** A drawn event with an object `data` given the members "01" and "4294967295" after its others. */
const digitNamedMembers = (batches: Batches, chooser: Chooser): Batches =>
  atDrawnEvent(batches, chooser, event => isRecord(event) && isRecord(event['data']), event => ({
    ...event, data: { ...(event['data'] as Record<string, unknown>), '01': 1, '4294967295': 2 },
  }))

const EDITS: readonly ((batches: Batches, chooser: Chooser) => Batches)[] = [ignorableFalseChunk, halfTurnsAndSteps, digitNamedMembers]

/** The batches edited as drawn, or as they are when the draw keeps them or finds nothing to edit. */
export function withPackingEdge(batches: Batches, planSeed: number): Batches {
  const chooser = saltedChooser(planSeed, PACKING_EDGE_SALT)
  if (chooser.int(4) !== 0) return batches
  return EDITS[chooser.int(EDITS.length)]!(batches, chooser)
}
