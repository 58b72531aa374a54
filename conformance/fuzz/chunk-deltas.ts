// The encodeJsonl probe, one plan in four, over batches in which every third chunk (from a drawn one of
// the first three) carries an empty delta: its `text` or `argumentsDelta` is "". ROW-5 packs a chunk
// whatever its delta holds, the empty string included, so the reference packs these as it packs the
// others, while a writer that tests the delta for truthiness leaves them verbatim and splits the run;
// the generators write no empty delta. The draw comes from a seed of the run's plan, as the
// headerEquals pairs do (header-pairs.ts), so the fuzzer's other draws stay as they were.
import { isRecord } from '../../reference/lossless-json.ts'
import { saltedChooser } from '../generators/index.ts'

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const CHUNK_DELTA_SALT = 0x44454c54

/** The event with its chunk's delta emptied, when it is an assistant/chunk holding a text or arguments delta. */
function withDeltaEmptied(event: unknown): unknown {
  if (!isRecord(event) || event['type'] !== 'assistant/chunk' || !isRecord(event['data']) || !isRecord(event['data']['chunk'])) return event
  const chunk = event['data']['chunk']
  const delta = 'text' in chunk ? 'text' : 'argumentsDelta' in chunk ? 'argumentsDelta' : undefined
  return delta === undefined ? event : { ...event, data: { ...event['data'], chunk: { ...chunk, [delta]: '' } } }
}

/** The batches with every third chunk's delta emptied, or as they are when the draw keeps them. */
export function withEmptyChunkDeltas(batches: readonly (readonly unknown[])[], planSeed: number): readonly (readonly unknown[])[] {
  const chooser = saltedChooser(planSeed, CHUNK_DELTA_SALT)
  if (chooser.int(4) !== 0) return batches
  const first = chooser.int(3)
  let chunks = 0
  return batches.map(batch => batch.map(event => {
    if (!isRecord(event) || event['type'] !== 'assistant/chunk') return event
    chunks += 1
    return (chunks - 1) % 3 === first ? withDeltaEmptied(event) : event
  }))
}
