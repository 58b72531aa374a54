// The vocabulary-growth edit (conformance/fuzz/vocabulary-growth.ts): one probe in eight of the
// operations that take a `vocabulary` gets its log followed by a type v0-rc8 adds and a vocabulary to
// read it with, and what load answers for each is what chapter 17 says.
import { describe, expect, it } from 'vitest'
import { referenceAdapter } from '../../conformance/adapters/reference.ts'
import { probeOutcome } from '../../conformance/fuzz/compare.ts'
import { withVocabularyGrowth } from '../../conformance/fuzz/vocabulary-growth.ts'
import { reference } from '../../reference/index.ts'
import { KNOWN_BAD } from '../known-bad/index.ts'
import { knownBadAdapter } from '../known-bad/wrap.ts'
import { assistant, event, turnEnd, turnStart } from '../reference/helpers.ts'

const LOG = [turnStart(0, 1), event('step/start', 1, { turn: 1, step: 1 }), assistant(2, 1, 1), event('step/end', 3, { turn: 1, step: 1 }), turnEnd(4, 1)]
const TEAM_TYPES = ['team/member', 'team/message/delivered', 'team/message/queued', 'team/task']

type EventRecord = Record<string, unknown>

describe('vocabulary growth', () => {
  it('follows about one log in eight with a team/* event, and load reads each as UNK-6 says', () => {
    const kinds = new Set<string>()
    const types = new Set<unknown>()
    let grown = 0
    for (let seed = 1; seed <= 800; seed += 1) {
      for (const load of [true, false]) {
        const edit = withVocabularyGrowth(LOG, seed, load)
        if (edit === undefined) continue
        grown += 1
        const added = edit.events.at(-1) as EventRecord
        types.add(added['type'])
        expect(edit.events.slice(0, -1)).toEqual(LOG)
        expect(added).toMatchObject({ seq: 5, time: LOG[4]!.time })
        const ignorable = added['ignorable'] === true
        kinds.add(`${edit.vocabulary ?? 'default'}${ignorable ? ', ignorable' : ''}${load ? ' (load)' : ''}`)
        const loaded = reference.load({ events: edit.events, ...(edit.vocabulary === undefined ? {} : { vocabulary: edit.vocabulary }) })
        // By hand: v0-rc8 knows the type; a pinned reader keeps it marked ignorable and refuses it
        // otherwise, at its seq (UNK-3, UNK-6); V0-RC8 names no vocabulary (VOC-16 names compare
        // exactly), refused with no seq (PROC-1). Only load is given a log it refuses.
        if (edit.vocabulary === 'V0-RC8') {
          expect(load).toBe(true)
          expect(loaded).toMatchObject({ ok: false, error: { code: 'FORMAT_UNKNOWN_EVENT_TYPE' } })
          expect(!loaded.ok && loaded.error.seq).toBeUndefined()
        } else if (edit.vocabulary === 'v0-pinned' && !ignorable) {
          expect(load).toBe(true)
          expect(loaded).toMatchObject({ ok: false, error: { code: 'FORMAT_UNKNOWN_EVENT_TYPE', seq: 5 } })
        } else {
          expect(loaded.ok && loaded.value.at(-1)).toEqual(added)
        }
      }
    }
    expect(grown).toBeGreaterThan(140)
    expect(grown).toBeLessThan(260)
    expect([...types].sort()).toEqual(TEAM_TYPES)
    expect([...kinds].sort()).toEqual([
      'V0-RC8 (load)', 'default, ignorable', 'default, ignorable (load)', 'v0-pinned (load)', 'v0-pinned, ignorable', 'v0-rc8', 'v0-rc8 (load)',
    ])
  })

  it('is compared on an operation over the loaded log, which is loaded with the probe\'s vocabulary (PROC-9)', async () => {
    const events = [...LOG.slice(0, 3), { type: 'team/task', seq: 3, time: LOG[2]!.time, data: { version: 1, teamId: 't', task: {} } }]
    const probe = { operation: 'repair' as const, events, extra: { vocabulary: 'v0-rc8' } }
    const bad = knownBadAdapter(KNOWN_BAD.find(candidate => candidate.name === 'repair-resume-default-vocabulary')!)
    const outcome = await probeOutcome(referenceAdapter, bad, probe)
    expect(outcome.compared).toBe(true)
    expect(outcome.compared && outcome.found).toMatchObject({ operation: 'repair', reference: 'accepts', adapter: 'rejects FORMAT_UNKNOWN_EVENT_TYPE' })
  })

  it('leaves an empty log (an empty surface window) as it is', () => {
    for (let seed = 1; seed <= 80; seed += 1) expect(withVocabularyGrowth([], seed, true)).toBeUndefined()
  })
})
