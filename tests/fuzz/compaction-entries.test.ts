// The compactionState probe's edits (conformance/fuzz/compaction-entries.ts): an entry of undefined for
// half the plans that ask about none, and, for one valid log in four of the plans that ask about an
// entry, the log cut inside a turn and ended by an end-seed, which leaves that turn open, or, one time
// in four, by an ignorable session/end-seed/v2, an unknown type that compaction reads as nothing.
import { describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import { drawRun } from '../../conformance/fuzz/draw.ts'
import { END_SEED_IN_TURN_VARIANT, ENTRY_UNDEFINED_VARIANT, passesEntryUndefined, withEndSeedInOpenTurn } from '../../conformance/fuzz/compaction-entries.ts'
import { deriveProbe, probeInput } from '../../conformance/fuzz/probes.ts'
import { withVocabularyGrowth } from '../../conformance/fuzz/vocabulary-growth.ts'

type Event = { type: string; seq: number; time: number }

/** The type of the latest turn/start or turn/end of `events`, if any: COMP-15's open turn by position. */
const latestTurnEvent = (events: readonly unknown[]): string | undefined =>
  (events as Event[]).findLast(event => event.type === 'turn/start' || event.type === 'turn/end')?.type

describe('the compactionState probe edits', () => {
  const runs = Array.from({ length: 800 }, (_, index) => drawRun(3, index, 80))
  const valid = runs.filter(run => run.mutation === undefined && run.olderShapes !== true)

  it('pass an entry of undefined for about half the plans without one, as an own member, marked as their variant', () => {
    const without = runs.filter(run => run.plan.entry === undefined)
    const passing = without.filter(run => passesEntryUndefined(run.plan.batchSeed))
    expect(passing.length).toBeGreaterThan(without.length * 0.35)
    expect(passing.length).toBeLessThan(without.length * 0.65)
    for (const run of passing.slice(0, 20)) {
      const probe = deriveProbe(run, 'compactionState')!
      expect(Object.hasOwn(probe.extra, 'entry')).toBe(true)
      expect(probe.extra['entry']).toBeUndefined()
      expect(probe.variant).toBe(ENTRY_UNDEFINED_VARIANT)
      // PROC-10: the same answer as with no entry member at all.
      expect(reference.compactionState(probeInput(probe))).toEqual(reference.compactionState(probeInput({ ...probe, extra: {} })))
    }
    const other = without.find(run => !passesEntryUndefined(run.plan.batchSeed) && withVocabularyGrowth(run.events, run.plan.batchSeed, false) === undefined)!
    expect(deriveProbe(other, 'compactionState')!.extra).toEqual({})
  })

  it('cut about one valid log in four inside a turn and end it with an end-seed that leaves the turn open', () => {
    const withTurns = valid.filter(run => (run.events as Event[]).some(event => event.type === 'turn/start'))
    const edited = withTurns.flatMap(run => {
      const events = withEndSeedInOpenTurn(run.events, run.plan.batchSeed)
      return events === undefined ? [] : [{ run, events }]
    })
    expect(edited.length).toBeGreaterThan(withTurns.length / 8)
    expect(edited.length).toBeLessThan(withTurns.length / 2)
    let lookalikes = 0
    for (const { run, events } of edited) {
      const marker = events.at(-1) as Event
      const kept = events.slice(0, -1)
      expect(kept).toEqual(run.events.slice(0, kept.length))
      expect(latestTurnEvent(events)).toBe('turn/start')
      expect(reference.load({ header: run.header, events }).ok).toBe(true)
      const at = { seq: kept.length, time: (kept.at(-1) as Event).time, data: {} }
      if (marker.type === 'session/end-seed/v2') {
        lookalikes += 1
        expect(marker).toEqual({ type: 'session/end-seed/v2', ignorable: true, ...at })
        // An unknown type, which compaction reads as nothing (UNK-4): the answers are the cut log's.
        for (const entry of ['manual', 'automatic'] as const) {
          expect(reference.compactionState({ header: run.header, events, entry })).toEqual(reference.compactionState({ header: run.header, events: kept, entry }))
        }
        continue
      }
      expect(marker).toEqual({ type: 'session/end-seed', ...at })
      // The marker frees the lock (COMP-14) and leaves the turn open (COMP-15, SEED-7): a manual entry
      // waits for that turn's turn/start, and an automatic one is owned by it.
      const turnStart = (kept as Event[]).findLast(event => event.type === 'turn/start') as Event & { data: { turn: number } }
      expect(reference.compactionState({ header: run.header, events, entry: 'manual' })).toMatchObject({ ok: false, error: { code: 'COMPACTION_BUSY', seq: turnStart.seq } })
      expect(reference.compactionState({ header: run.header, events, entry: 'automatic' })).toMatchObject({ ok: true, value: { owner: turnStart.data.turn } })
    }
    expect(lookalikes).toBeGreaterThan(edited.length / 8)
    expect(lookalikes).toBeLessThan(edited.length / 2)
  })

  it('reach the compactionState probe with an entry, marked as their variant, and never a broken or older log', () => {
    const asked = runs.filter(run => run.plan.entry !== undefined)
    const probes = asked.map(run => ({ run, probe: deriveProbe(run, 'compactionState')! }))
    const cut = probes.filter(({ probe }) => probe.variant === END_SEED_IN_TURN_VARIANT)
    expect(cut.length).toBeGreaterThan(0)
    for (const { run, probe } of cut) {
      expect(run.mutation).toBeUndefined()
      expect(run.olderShapes).not.toBe(true)
      expect(probe.events).toEqual(withEndSeedInOpenTurn(run.events, run.plan.batchSeed))
      expect(probe.extra).toEqual({ entry: run.plan.entry })
    }
    const plain = probes.find(({ probe }) => probe.variant === undefined)!
    expect(plain.probe.events).toBe(plain.run.events)
    expect(plain.probe.extra).toEqual({ entry: plain.run.plan.entry })
  })
})
