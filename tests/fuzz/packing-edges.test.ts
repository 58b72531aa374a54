// The encodeJsonl probe's batches edited at the edges of ROW-5 and JSONL-8 (conformance/fuzz/
// packing-edges.ts): one plan in four, each edit drawn, and what the reference writes for each, by hand.
import { describe, expect, it } from 'vitest'
import { chunkRun, HEADER } from '../support/chunk-batches.ts'
import { withPackingEdge } from '../../conformance/fuzz/packing-edges.ts'
import { reference } from '../../reference/index.ts'

const TEXTS = ['a', 'b', 'c', 'd']
const BATCHES = [chunkRun(TEXTS)]

const HEADER_LINE = '{"type":"session","version":0,"id":"s","createdAt":1,"delegationDepth":0}'
const line = (event: unknown): string => JSON.stringify(event)
const chunkLine = (seq: number, text: string, extra = ''): string =>
  `{"type":"assistant/chunk","seq":${seq},"time":${10 + seq},"data":{"turn":1,"step":1,"chunk":{"type":"text-delta","index":0,"text":"${text}"}}${extra}}`
const START_LINES = [line(BATCHES[0]![0]), line(BATCHES[0]![1])]

/** The text the reference should write, by ROW-5 to ROW-7 and JSONL-8, for the batch with chunk `at` (0 to 3) marked ignorable: false. */
function ignorableFalseText(at: number): string {
  const seq = at + 2
  const marked = chunkLine(seq, TEXTS[at]!, ',"ignorable":false')
  // The marked chunk closes the run before it and starts none: runs of three pack, shorter ones do not.
  const lines = at === 0
    ? [marked, '{"type":"text-chunks","seq0":3,"time0":13,"data":{"turn":1,"step":1,"index":0,"dt":[1,1],"texts":["b","c","d"]}}']
    : at === 3
      ? ['{"type":"text-chunks","seq0":2,"time0":12,"data":{"turn":1,"step":1,"index":0,"dt":[1,1],"texts":["a","b","c"]}}', marked]
      : TEXTS.map((text, index) => (index === at ? marked : chunkLine(index + 2, text)))
  return [HEADER_LINE, ...START_LINES, ...lines, ''].join('\n')
}

const encode = (batches: readonly (readonly unknown[])[]): string => {
  const result = reference.encodeJsonl({ header: HEADER, batches })
  return result.ok ? (result.value as { text: string }).text : `rejected ${JSON.stringify(result)}`
}

describe('packing edges', () => {
  it('are drawn for about one plan in four, each edit, at each place, and written as ROW-5 and JSONL-8 say', () => {
    const kinds = new Set<string>()
    let edited = 0
    for (let seed = 1; seed <= 600; seed += 1) {
      const batches = withPackingEdge(BATCHES, seed)
      if (batches === BATCHES) continue
      edited += 1
      const events = batches[0]!
      const marked = events.findIndex(event => (event as Record<string, unknown>)['ignorable'] === false)
      const digits = events.findIndex(event => '01' in ((event as { data: object }).data))
      if (marked !== -1) {
        kinds.add(`ignorable ${marked}`)
        expect(encode(batches)).toBe(ignorableFalseText(marked - 2))
      } else if (digits !== -1) {
        kinds.add(`digits ${digits}`)
        // JSONL-8: "01" is no canonical index and "4294967295" is 2^32 - 1: both stay after the others.
        // An edited chunk has members ROW-5 does not name, so the run breaks around it.
        const written = encode(batches).split('\n')
        const editedLine = written.find(text => text.includes('"01"'))!
        expect(editedLine).toBe(line(BATCHES[0]![digits]).replace(/}}$/, ',"01":1,"4294967295":2}}'))
      } else {
        kinds.add('halves')
        expect(encode(batches)).toBe([
          HEADER_LINE, ...START_LINES,
          '{"type":"text-chunks","seq0":2,"time0":12,"data":{"turn":1.5,"step":1.5,"index":0,"dt":[1,1,1],"texts":["a","b","c","d"]}}', '',
        ].join('\n'))
      }
    }
    expect(edited).toBeGreaterThan(100)
    expect(edited).toBeLessThan(200)
    expect([...kinds].sort()).toEqual([
      'digits 0', 'digits 1', 'digits 2', 'digits 3', 'digits 4', 'digits 5', 'halves', 'ignorable 2', 'ignorable 3', 'ignorable 4', 'ignorable 5',
    ])
  })
})
