// The artifactPath, fork and store probes' member edits (conformance/fuzz/input-members.ts): optional
// members given as undefined one probe in four, which changes no answer of the reference (PROC-10),
// forks made at a `now` earlier than the source one time in eight, and a store header of undefined one
// time in sixteen, which STORE-4 refuses.
import { describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import { drawRun } from '../../conformance/fuzz/draw.ts'
import { NEGATIVE_ZERO_BOUNDARY_VARIANT } from '../../conformance/fuzz/fork-boundary.ts'
import { EARLY_NOW, forkNow, STORE_HEADER_UNDEFINED_VARIANT, storesWithoutHeader, UNDEFINED_MEMBERS_VARIANT } from '../../conformance/fuzz/input-members.ts'
import { deriveProbe, NOW, probeInput, type Probe } from '../../conformance/fuzz/probes.ts'

/** The probe's input with its undefined members left out, as a caller that gives none would call. */
const withoutUndefined = (probe: Probe): Record<string, unknown> =>
  Object.fromEntries(Object.entries(probeInput(probe)).filter(([, value]) => value !== undefined))

describe('the artifactPath and fork member edits', () => {
  const runs = Array.from({ length: 600 }, (_, index) => drawRun(5, index, 40)).filter(run => run.mutation === undefined)

  for (const operation of ['artifactPath', 'fork'] as const) {
    it(`give ${operation} optional members as undefined for about one probe in four, as own members, answered as if absent`, () => {
      const probes = runs.map(run => deriveProbe(run, operation)).filter((probe): probe is Probe => probe !== undefined && probe.variant !== NEGATIVE_ZERO_BOUNDARY_VARIANT)
      const edited = probes.filter(probe => probe.variant === UNDEFINED_MEMBERS_VARIANT)
      expect(edited.length).toBeGreaterThan(probes.length / 8)
      expect(edited.length).toBeLessThan(probes.length / 2)
      for (const probe of edited) {
        const undefinedNames = Object.entries(probe.extra).filter(([, value]) => value === undefined).map(([name]) => name)
        expect(undefinedNames.length).toBeGreaterThan(0)
        expect(undefinedNames.every(name => (operation === 'fork' ? ['sessionId', 'header'] : ['cwd', 'encoding']).includes(name))).toBe(true)
        const call = reference[operation] as (input: Record<string, unknown>) => unknown
        expect(call(probeInput(probe))).toEqual(call(withoutUndefined(probe)))
      }
      if (operation === 'fork') expect(edited.some(probe => Object.hasOwn(probe.extra, 'header'))).toBe(true)
    })
  }

  it('make about one fork in eight at a now before the source and one at 0, stamping the child and its marker with it', () => {
    const forks = runs.map(run => ({ run, probe: deriveProbe(run, 'fork') })).filter(({ probe }) => probe !== undefined)
    for (const { run, probe } of forks) expect(probe!.extra['now']).toBe(forkNow(run.plan.batchSeed, NOW))
    for (const early of [EARLY_NOW, 0]) {
      const forksThen = forks.filter(({ probe }) => probe!.extra['now'] === early)
      expect(forksThen.length).toBeGreaterThan(forks.length / 16)
      expect(forksThen.length).toBeLessThan(forks.length / 4)
      type Child = { header: { createdAt: number; seedLength: number }; events: { time: number }[] }
      const children = forksThen.flatMap(({ probe }) => {
        const result = reference.fork(probeInput(probe!) as never)
        return result.ok ? [result.value as unknown as Child] : []
      })
      expect(children.length).toBeGreaterThan(0)
      for (const child of children) {
        expect(child.header.createdAt).toBe(early)
        // The marker fork adds, when the seed does not end in one (FORK-6), is stamped now.
        if (child.events.length > child.header.seedLength) expect(child.events.at(-1)!.time).toBe(early)
      }
    }
  })

  it('give about one load over an unedited valid log, and one fork, in eight a sessionId, answered as META-2 and FORK-5 say', () => {
    // More runs than the others take: a fork draws its sessionId only where its boundary has no variant.
    const many = Array.from({ length: 2000 }, (_, index) => drawRun(6, index, 40)).filter(run => run.mutation === undefined)
    for (const operation of ['load', 'fork'] as const) {
      const current = many.filter(run => run.olderShapes !== true && run.twinOfOlderShapes !== true)
        .map(run => ({ run, probe: deriveProbe(run, operation) })).filter(({ probe }) => probe !== undefined)
      // Never beside another edit, whose fault a session of another id would hide: on a log as drawn,
      // with no variant but the undefined members of a fork (which may take the sessionId away).
      // (A sessionId of undefined is one of the undefined members, drawn apart.)
      for (const { run, probe } of current.filter(({ probe }) => probe!.extra['sessionId'] !== undefined)) {
        expect(probe!.events, operation).toBe(run.events)
        expect([undefined, UNDEFINED_MEMBERS_VARIANT], operation).toContain(probe!.variant)
        // A fork's at a seq of the log: a boundary off it, asked with another session named, is never compared.
        if (operation === 'fork') expect(run.events.map((_event, seq) => seq)).toContain(probe!.extra['boundary'])
      }
      const probes = current.filter(({ run, probe }) => probe!.events === run.events)
      const named = probes.filter(({ probe }) => Object.hasOwn(probe!.extra, 'sessionId') && probe!.variant !== UNDEFINED_MEMBERS_VARIANT)
      expect(named.length, operation).toBeGreaterThan(probes.length / 20)
      expect(named.length, operation).toBeLessThan(probes.length / 4)
      const given = new Set<string>()
      for (const { run, probe } of named) {
        const id = (run.header as { id: string }).id
        const sessionId = probe!.extra['sessionId']
        given.add(sessionId === id ? 'own' : JSON.stringify(sessionId).replace(id, 'ID'))
        const input = probeInput(probe!)
        const { sessionId: _sessionId, ...unnamed } = input
        const result = (reference[operation] as (input: Record<string, unknown>) => { ok: boolean; value?: { header: Record<string, unknown> } })(input)
        // META-2: the header's id must be that very string; a name that is not equals no header id.
        if (sessionId !== id) expect(result).toMatchObject({ ok: false, error: { code: 'HEADER_ID_MISMATCH' } })
        else expect(result).toEqual((reference[operation] as (input: Record<string, unknown>) => unknown)(unnamed))
        // FORK-5: the child's parentSession is the source's id, given or read from the header.
        if (operation === 'fork' && result.ok) expect(result.value!.header['parentSession']).toBe(id)
      }
      expect([...given].sort(), operation).toEqual(['""', '"ID-other"', 'null', 'own'])
    }
  })

  it('give about one store in sixteen its header as undefined, which the reference refuses with JSON_UNDEFINED and no seq', () => {
    const stores = runs.map(run => ({ run, probe: deriveProbe(run, 'store') })).filter(({ probe }) => probe !== undefined)
    const headless = stores.filter(({ run }) => storesWithoutHeader(run.plan.batchSeed))
    expect(headless.length).toBeGreaterThan(stores.length / 40)
    expect(headless.length).toBeLessThan(stores.length / 6)
    for (const { probe } of headless) {
      expect(Object.hasOwn(probe!.extra, 'header') && probe!.extra['header'] === undefined).toBe(true)
      expect(probe!.variant).toBe(STORE_HEADER_UNDEFINED_VARIANT)
      expect(reference.store(probeInput(probe!) as never)).toMatchObject({ ok: false, error: { code: 'JSON_UNDEFINED' } })
    }
  })
})
