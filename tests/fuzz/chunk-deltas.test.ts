// The encodeJsonl probe's batches with every third chunk's delta emptied (conformance/fuzz/chunk-deltas.ts):
// one plan in four, and the reference packs an empty delta as any other (ROW-5).
import { describe, expect, it } from 'vitest'
import { chunkRun, HEADER } from '../support/chunk-batches.ts'
import { reference } from '../../reference/index.ts'
import { withEmptyChunkDeltas } from '../../conformance/fuzz/chunk-deltas.ts'

const BATCHES = [chunkRun(['a', 'b', 'c'])]

const textsOf = (batches: readonly (readonly unknown[])[]): unknown[] =>
  batches[0]!.slice(2).map(event => (event as { data: { chunk: { text: unknown } } }).data.chunk.text)

describe('chunks with an empty delta', () => {
  it('are drawn for about one plan in four, every third chunk from one of the first three, and nothing else', () => {
    const edited = Array.from({ length: 400 }, (_, seed) => withEmptyChunkDeltas(BATCHES, seed)).filter(batches => batches !== BATCHES)
    expect(edited.length).toBeGreaterThan(60)
    expect(edited.length).toBeLessThan(140)
    const seen = new Set<string>()
    for (const batches of edited) {
      expect(batches[0]!.slice(0, 2)).toEqual(BATCHES[0]!.slice(0, 2))
      seen.add(JSON.stringify(textsOf(batches)))
    }
    expect([...seen].sort()).toEqual(['["","b","c"]', '["a","","c"]', '["a","b",""]'])
  })

  it('are packed by the reference into one row that keeps the empty text (ROW-5, ROW-6)', () => {
    const batches = Array.from({ length: 40 }, (_, seed) => withEmptyChunkDeltas(BATCHES, seed)).find(edited => textsOf(edited)[1] === '')!
    const result = reference.encodeJsonl({ header: HEADER, batches })
    expect(result.ok && result.value.text).toContain('{"type":"text-chunks","seq0":2,"time0":12,"data":{"turn":1,"step":1,"index":0,"dt":[1,1],"texts":["a","","c"]}}')
  })
})
