// P12: every mutation operator turns a valid log into one that the operation it names rejects with
// the code it is tagged with, at the seq it predicts, or with no seq for a fault of the session header
// (PROC-1, PROC-2, PROC-3, PROC-7).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import { V0_PINNED_TYPES } from '../../reference/vocabulary.ts'
import { buildLog } from '../../conformance/builder.ts'
import { MUTATIONS, chooserFromInts, generatedLogArbitrary, mutationCaseArbitrary, mutationNamed, type MutationCase } from '../../conformance/generators/index.ts'
import type { LogEvent } from '../../conformance/generators/events.ts'
import { runs } from './support.ts'

/** What the reference reports for a mutated case: the code and seq of the rejection, or of the first violation. */
function verdict(mutated: MutationCase): { code: string; seq?: number } | undefined {
  const found = reported(mutated)
  return found === undefined ? undefined : { code: found.code, seq: found.seq }
}

function reported(mutated: MutationCase): { code: string; seq?: number } | undefined {
  const input = { header: mutated.header, events: mutated.events }
  if (mutated.operation === 'append') {
    const result = reference.append({ ...input, candidate: mutated.candidate, time: 1_790_000_000_000 })
    return result.ok ? undefined : result.error
  }
  const loaded = reference.load(input)
  if (mutated.operation === 'load') return loaded.ok ? undefined : loaded.error
  if (!loaded.ok) return { code: `load rejected it: ${loaded.error.code}`, seq: loaded.error.seq }
  const relations = reference.relations(input)
  return relations.ok ? relations.value.violations[0] : relations.error
}

/** The values outside lossless JSON the domain operators write, in the order a walk of `value` meets them. */
function faultsInMemberOrder(value: unknown): string[] {
  if (value === undefined) return ['undefined']
  if (typeof value === 'number') return Object.is(value, -0) ? ['-0'] : Number.isFinite(value) ? [] : ['non-finite']
  if (typeof value === 'bigint') return ['bigint']
  if (Array.isArray(value)) {
    const indexes = Array.from({ length: value.length }, (_, index) => (index in value ? faultsInMemberOrder(value[index]) : ['hole'])).flat()
    const others = Object.keys(value).filter(key => !/^(0|[1-9]\d*)$/.test(key))
    return [...indexes, ...others.flatMap(key => ['array member', ...faultsInMemberOrder((value as unknown as Record<string, unknown>)[key])])]
  }
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(faultsInMemberOrder)
  return []
}

describe('P12: each mutation operator is rejected with its code', () => {
  it.each(MUTATIONS.map(mutation => [mutation.name, mutation] as const))('%s', (_name, mutation) => {
    // Enough choices for every decision an operator makes: past the end of the list a chooser answers 0,
    // which would pin each later decision to its first option (the first target, the first node).
    const cases = fc.record({ log: generatedLogArbitrary({ maxSize: 100 }), choices: fc.array(fc.nat(), { minLength: 24, maxLength: 24 }) })
      .filter(({ log }) => mutation.applicable(log))
    fc.assert(fc.property(cases, ({ log, choices }) => {
      const mutated = mutation.apply(log, chooserFromInts(choices))
      expect(verdict(mutated)).toEqual({ code: mutation.code, seq: mutated.seq })
    }), runs(20))
  })

  // A random choice rarely leaves out a middle node of a replace that shadows three or more, so for
  // PROV-7 every replace of the log and every node it shadows is tried.
  it('uncite-shadowed at every replace and every node it shadows', () => {
    const uncite = mutationNamed('uncite-shadowed')
    fc.assert(fc.property(generatedLogArbitrary({ maxSize: 100 }).filter(log => uncite.applicable(log)), log => {
      const replaces = log.events.filter(event => typeof event.surfaceOp === 'object')
      replaces.forEach((replace, target) => {
        for (let node = 0; node < (replace.sourceEventSeqs?.length ?? 1); node++) {
          const mutated = uncite.apply(log, chooserFromInts([target, node]))
          expect(verdict(mutated)).toEqual({ code: 'PROVENANCE_INCOMPLETE', seq: mutated.seq })
        }
      })
    }), runs(20))
  })

  // An unknown type marked ignorable passes the vocabulary phase only while it is marked: breaking its
  // marker gets FORMAT_UNKNOWN_EVENT_TYPE first (UNK-3), so the operator must leave such events alone.
  // A random choice rarely picks the one such event of a log, so every target is tried.
  // Known types marked ignorable (which the model writes too) are targets like any known type.
  const isIgnorableUnknown = (event: { type: string; ignorable?: true }): boolean => event.ignorable === true && !V0_PINNED_TYPES.has(event.type)
  it('record-ignorable-invalid at every event it may target, on logs holding an ignorable unknown event', () => {
    const operator = mutationNamed('record-ignorable-invalid')
    const withUnknown = generatedLogArbitrary({ maxSize: 100 }).filter(log => log.events.some(isIgnorableUnknown) && operator.applicable(log))
    fc.assert(fc.property(withUnknown, log => {
      for (let target = 0; target < log.events.length; target++) {
        const mutated = operator.apply(log, chooserFromInts([target]))
        expect(verdict(mutated)).toEqual({ code: 'ENV_IGNORABLE_INVALID', seq: mutated.seq })
      }
    }), runs(10))
  })

  // A result between a claim and a replace disarms the claim (COMP-10); moving it away would leave the
  // claim to the replace, whose mismatch comes first. Generated logs never put an event between the two.
  it('result-in-later-step leaves alone a result that stands between a claim and a replace', () => {
    const built = buildLog([
      { 'turn/start': 1 }, { user: 'read it' }, { 'step/start': [1, 1] }, { assistant: [1, 1], calls: ['c1'] }, { call: [1, 1, 'c1'] },
      { 'compaction/prune': [1] }, { result: [1, 1, 'c1'], sources: [4] }, { user: 'notes', replace: [3, 3], sources: [3] },
      { 'step/end': [1, 1] }, { 'step/start': [1, 2] }, { 'step/end': [1, 2] }, { 'turn/end': [1, 'completed'] },
    ])
    const log = { events: ('events' in built ? built.events : []) as LogEvent[] }
    expect(reference.relations(log)).toEqual({ ok: true, value: { violations: [] } })
    expect(mutationNamed('result-in-later-step').applicable(log)).toBe(false)
  })

  it('two-domain-faults and append-two-domain-faults put undefined after a fault it outranks, in member order', () => {
    for (const name of ['two-domain-faults', 'append-two-domain-faults']) {
      const operator = mutationNamed(name)
      const cases = fc.record({ log: generatedLogArbitrary({ maxSize: 100 }), choices: fc.array(fc.nat(), { minLength: 24, maxLength: 24 }) })
        .filter(({ log }) => operator.applicable(log))
      fc.assert(fc.property(cases, ({ log, choices }) => {
        const mutated = operator.apply(log, chooserFromInts(choices))
        const broken = mutated.operation === 'append' ? mutated.candidate : mutated.events[mutated.seq!]
        // A check that stops at the first fault it meets reports the outranked one (U39's build does).
        const [first, second, ...more] = faultsInMemberOrder(broken)
        expect([['-0', 'non-finite', 'hole', 'array member'].includes(first!), second, more]).toEqual([true, 'undefined', []])
      }), runs(20))
    }
  })

  it('two-domain-faults follows the record\'s own member order, a seq written last included', () => {
    // A first fault may leave a record's seq or time re-added after its data (then a second one follows).
    const log = { events: [{ type: 'turn/start', time: 1, data: { turn: 1 }, seq: 0 }] as unknown as LogEvent[] }
    for (let first = 0; first < 2; first += 1) {
      const mutated = mutationNamed('two-domain-faults').apply(log, chooserFromInts([0, first, 0, 0]))
      expect(faultsInMemberOrder(mutated.events[0]).at(-1)).toBe('undefined')
    }
  })

  it('sparse-array and append-sparse-array give a hole or a member besides the indices, each drawn', () => {
    for (const name of ['sparse-array', 'append-sparse-array']) {
      const operator = mutationNamed(name)
      const kinds = new Set<string>()
      const cases = fc.record({ log: generatedLogArbitrary({ maxSize: 60 }), choices: fc.array(fc.nat(), { minLength: 24, maxLength: 24 }) })
        .filter(({ log }) => operator.applicable(log))
      fc.assert(fc.property(cases, ({ log, choices }) => {
        const mutated = operator.apply(log, chooserFromInts(choices))
        const faults = faultsInMemberOrder(mutated.operation === 'append' ? mutated.candidate : mutated.events[mutated.seq!])
        expect(faults).toHaveLength(1)
        kinds.add(faults[0]!)
      }), runs(40))
      expect([...kinds].sort(), name).toEqual(['array member', 'hole'])
    }
  })

  it('any applicable operator on any log', () => {
    fc.assert(fc.property(mutationCaseArbitrary({ maxSize: 100 }), mutated => {
      expect(verdict(mutated)).toEqual({ code: mutated.code, seq: mutated.seq })
    }), runs(100))
  })
})
