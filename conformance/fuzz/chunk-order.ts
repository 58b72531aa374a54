// The encodeJsonl probe, one plan in four, over batches whose chunks list their members in reverse
// order. ROW-5 asks a packable chunk for exactly its members, in any order, so the reference packs them
// as it packs chunks in the order producers write, while a writer that compares a member list in one
// order leaves them verbatim; the generators write chunks in upstream's order only, so before, no probe
// could tell. The draw comes from a seed of the run's plan, as the headerEquals pairs do
// (header-pairs.ts), so the fuzzer's other draws stay as they were.
import { isRecord } from '../../reference/lossless-json.ts'
import { saltedChooser } from '../generators/index.ts'

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const CHUNK_ORDER_SALT = 0x43484b4f

/** The event with its chunk's members in reverse order, when it is an assistant/chunk holding one. */
function withChunkReversed(event: unknown): unknown {
  if (!isRecord(event) || event['type'] !== 'assistant/chunk' || !isRecord(event['data']) || !isRecord(event['data']['chunk'])) return event
  const chunk = event['data']['chunk']
  return { ...event, data: { ...event['data'], chunk: Object.fromEntries(Object.entries(chunk).reverse()) } }
}

/** The batches with every chunk's members reversed, or as they are when the draw keeps them. */
export function withChunkMembersReversed(batches: readonly (readonly unknown[])[], planSeed: number): readonly (readonly unknown[])[] {
  if (saltedChooser(planSeed, CHUNK_ORDER_SALT).int(4) !== 0) return batches
  return batches.map(batch => batch.map(withChunkReversed))
}
