// The encodeJsonl probe's batches with every chunk's members reversed (conformance/fuzz/chunk-order.ts):
// one plan in four, and the reference packs them as it packs chunks in the producers' order.
import { describe, expect, it } from 'vitest'
import { chunkRun, HEADER } from '../support/chunk-batches.ts'
import { reference } from '../../reference/index.ts'
import { withChunkMembersReversed } from '../../conformance/fuzz/chunk-order.ts'

const BATCHES = [chunkRun(['a', 'b', 'c'])]

describe('chunks with their members reversed', () => {
  it('are drawn for about one plan in four, reversing every chunk and nothing else', () => {
    const edited = Array.from({ length: 400 }, (_, seed) => withChunkMembersReversed(BATCHES, seed)).filter(batches => batches !== BATCHES)
    expect(edited.length).toBeGreaterThan(60)
    expect(edited.length).toBeLessThan(140)
    for (const [batch] of edited) {
      expect(batch!.slice(0, 2)).toEqual(BATCHES[0]!.slice(0, 2))
      // By hand: {type, index, text} written as {text, index, type}.
      expect(batch!.slice(2).map(event => JSON.stringify((event as { data: { chunk: unknown } }).data.chunk)))
        .toEqual(['{"text":"a","index":0,"type":"text-delta"}', '{"text":"b","index":0,"type":"text-delta"}', '{"text":"c","index":0,"type":"text-delta"}'])
    }
  })

  it('are packed by the reference into the row it writes for the producers\' order (ROW-5)', () => {
    const reversed = Array.from({ length: 40 }, (_, seed) => withChunkMembersReversed(BATCHES, seed)).find(batches => batches !== BATCHES)!
    const text = (batches: unknown): unknown => {
      const result = reference.encodeJsonl({ header: HEADER, batches })
      return result.ok ? result.value.text : result.error
    }
    expect(text(reversed)).toBe(text(BATCHES))
    expect(text(reversed)).toContain('{"type":"text-chunks","seq0":2,"time0":12,"data":{"turn":1,"step":1,"index":0,"dt":[1,1],"texts":["a","b","c"]}}')
  })
})
