// Known-divergences files (`fuzz --known`, conformance/fuzz/known.ts): a malformed file is refused
// naming the file and what is wrong, and a disagreement takes the first class whose globs all match.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { disagreement } from '../../conformance/fuzz/compare.ts'
import { appliesTo, knownClassOf, readKnownDivergences } from '../../conformance/fuzz/known.ts'

const dir = mkdtempSync(join(tmpdir(), 'known-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function fileOf(text: string): string {
  const path = join(dir, 'known.yaml')
  writeFileSync(path, text)
  return path
}

describe('reading a known-divergences file', () => {
  it('reads the adapters and the classes as written', () => {
    const path = fileOf("adapters: ['impl@*']\nknown:\n  - {class: U1, operation: relations, reference: accepts, adapter: 'lacks *', shapes: current, why: stops early}\n")
    expect(readKnownDivergences(path)).toStrictEqual({
      adapters: ['impl@*'],
      known: [{ class: 'U1', operation: 'relations', reference: 'accepts', adapter: 'lacks *', shapes: 'current', why: 'stops early' }],
    })
  })

  it.each([
    ['adapters: [x\nknown: [\n', ':2: not YAML: Flow sequence in block collection'],
    ['\n[1, 2]', ':2: not a known-divergences file: expected a mapping with adapters and known'],
    ['adapters: x\nknown: []', ':1: not a known-divergences file: adapters must be a list of name globs'],
    ['known: []\nadapters: [1]', ':2: not a known-divergences file: adapters must be a list of name globs'],
    ['adapters: [x]\nknown: {}', ':2: not a known-divergences file: known must be a list of classes'],
    ['adapters: [x]\nknown:\n  - {class: U1, why: w, adapter: "*"}\n  - {why: w}', ':4: not a known-divergences file: known[1] needs a class'],
    ['adapters: [x]\nknown: [{class: "", why: w}]', ':2: not a known-divergences file: known[0] needs a class'],
    ['adapters: [x]\nknown: [{class: U1, why: "  "}]', ':2: not a known-divergences file: known[0] (U1) needs a why'],
    ['adapters: [x]\nknown: [{class: U1, why: w, code: X, detail: y}]', ':2: not a known-divergences file: known[0] (U1) has unknown members code, detail (it may have class, why, operation, reference, adapter, shapes, records)'],
    ['adapters: [x]\nknown:\n  - class: U1\n    wy: w', ':4: not a known-divergences file: known[0] (U1) has unknown members wy (it may have class, why, operation, reference, adapter, shapes, records)'],
    ['adapters: [x]\nknown: []\nnote: later', ':3: not a known-divergences file: it has unknown members note (it may have adapters, known)'],
    ['adapters: [x]\nknown:\n  - class: U1\n    why: w\n    operation: [load]', ':5: not a known-divergences file: known[0].operation must be a glob'],
    // A class that gives no matcher would excuse every disagreement: a `*` glob says so on purpose.
    ['adapters: [x]\nknown:\n  - {class: U1, why: w}', ':3: not a known-divergences file: known[0] (U1) gives none of operation, reference, adapter, shapes, records, so it would excuse every disagreement: give at least one (`*` matches anything)'],
    ['adapters: [x]\nknown:\n  - class: U1\n    why: w\n    shapes: old', ':5: not a known-divergences file: known[0].shapes must be current or older, not "old"'],
    ['adapters: [x]\nknown:\n  - class: U1\n    why: w\n    records: \'null\'', ':5: not a known-divergences file: known[0].records must be objects or not-all-objects, not "null"'],
  ])('refuses %j, naming the file and the line', (text, message) => {
    const path = fileOf(text)
    expect(() => readKnownDivergences(path)).toThrow(`${path}${message}`)
  })

  it('names a missing file', () => {
    const absent = join(dir, 'absent.yaml')
    expect(() => readKnownDivergences(absent)).toThrow(`cannot read the known-divergences file ${absent}: no such file or folder`)
  })
})

describe('matching a disagreement', () => {
  const classes = [
    { class: 'A', why: 'a', operation: 'load', adapter: 'rejects HEADER_*' },
    { class: 'B', why: 'b', reference: 'rejects ?AYLOAD_INVALID' },
    { class: 'C', why: 'c', shapes: 'older' as const },
    { class: 'D', why: 'd', adapter: '*' },
  ]

  it('takes the first class whose every glob matches, a missing member matching anything', () => {
    const of = (disagreement: Parameters<typeof knownClassOf>[1]): string | undefined => knownClassOf(classes, disagreement)?.class
    expect(of({ operation: 'load', reference: 'accepts', adapter: 'rejects HEADER_CWD_NOT_ABSOLUTE' })).toBe('A')
    expect(of({ operation: 'fork', reference: 'rejects PAYLOAD_INVALID', adapter: 'rejects HEADER_CWD_NOT_ABSOLUTE' })).toBe('B')
    expect(of({ operation: 'fork', reference: 'accepts', adapter: 'accepts', olderShapes: true })).toBe('C')
    expect(of({ operation: 'fork', reference: 'accepts', adapter: 'accepts' })).toBe('D')
    expect(knownClassOf(classes.slice(0, 3), { operation: 'fork', reference: 'accepts', adapter: 'accepts' })).toBeUndefined()
  })

  it('matches a glob against the whole text, not a part of it', () => {
    expect(knownClassOf([{ class: 'A', why: 'a', adapter: 'rejects HEADER' }], { operation: 'load', reference: 'accepts', adapter: 'rejects HEADER_ID_MISMATCH' })).toBeUndefined()
  })

  it('never excuses a failure of the adapter', () => {
    expect(knownClassOf(classes, { operation: 'load', reference: 'accepts', adapter: 'fails: throws', failure: true })).toBeUndefined()
  })

  it('applies a file to the adapters its name globs match', () => {
    expect([appliesTo({ adapters: ['dsh-session@*'], known: [] }, 'dsh-session@0.1.0-rc.8'), appliesTo({ adapters: ['dsh-session@*'], known: [] }, 'reference@0')]).toEqual([true, false])
  })
})

describe('knownClassOf: a class of current shapes and of records that are objects', () => {
  it('excuses the disagreement it names, and no class of older shapes does', () => {
    const violations = (...list: [string, number][]) => ({ ok: true as const, value: { violations: list.map(([code, seq]) => ({ code, seq })) } })
    const found = disagreement('relations', violations(['TURN_NOT_OPEN', 4]), { kind: 'result', result: violations() })!
    expect(knownClassOf([{ class: 'U1', why: 'w', operation: 'relations', shapes: 'current', records: 'objects' }], found)?.class).toBe('U1')
    expect(knownClassOf([{ class: 'U1', why: 'w', operation: 'relations', shapes: 'older' }], found)).toBeUndefined()
  })
})
