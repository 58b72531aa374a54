// What the fuzzer draws and probes: every mutation operator as often as the others (rare log shapes
// included), second faults, and probes that reach past the easy cases (a fork between turns, an
// atSeq on a request record, an append of any event, a record line left unterminated).
import { describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import { MUTATIONS } from '../../conformance/generators/index.ts'
import { drawRun, operatorsOf, type DrawnRun, type RunPlan } from '../../conformance/fuzz/draw.ts'
import { withBuilderClock, withoutEvents } from '../../conformance/fuzz/log-cuts.ts'
import { deriveProbe, probeInput, PROBED_OPERATIONS } from '../../conformance/fuzz/probes.ts'
import { STORED_ROW_VARIANT } from '../../conformance/fuzz/stored-rows.ts'
import { withChunkMembersReversed } from '../../conformance/fuzz/chunk-order.ts'
import { withStoredHeadersOutsideHdr1 } from '../../conformance/fuzz/stored-headers.ts'
import { OUTSIDE_HDR_1_VARIANT } from '../../conformance/fuzz/header-pairs.ts'
import { BASE_TIME } from '../../conformance/builder.ts'
import type { Disagreement } from '../../conformance/fuzz/compare.ts'
import { renderVector, requirementsOf } from '../../conformance/fuzz/vector-writer.ts'
import { withVocabularyGrowth } from '../../conformance/fuzz/vocabulary-growth.ts'
import { boundaryOffLog } from '../../conformance/fuzz/fork-boundary.ts'
import { parse } from 'yaml'

const RUNS = Array.from({ length: 2000 }, (_, index) => drawRun(1, index, 60))

function withPlan(run: DrawnRun, plan: Partial<RunPlan>): DrawnRun {
  return { ...run, plan: { ...run.plan, ...plan } }
}

const VALID_RUNS = RUNS.filter(run => run.mutation === undefined)

describe('the fuzzer\'s draw', () => {
  it('draws every mutation operator, rare log shapes included, about as often as the others', () => {
    const counts = new Map<string, number>()
    for (const run of RUNS) for (const name of operatorsOf(run)) counts.set(name, (counts.get(name) ?? 0) + 1)
    // 2,000 runs, 65% broken, 94 operators: 14 each on average, as first fault. Picked among the
    // operators that apply, end-without-summary and rewrite-wrong-target came up about once in 2,000
    // runs; drawn first, the rarest comes up 6 times here (first or second fault).
    for (const operator of MUTATIONS) expect(counts.get(operator.name) ?? 0, operator.name).toBeGreaterThanOrEqual(5)
    // And none far more often than the others: as first fault, the most drawn comes up 23 times (it
    // also takes the runs whose drawn operator suited none of their logs); one operator drawn five
    // times as often as the others would come up some 70 times.
    const firsts = new Map<string, number>()
    for (const run of RUNS) for (const name of operatorsOf(run).slice(0, 1)) firsts.set(name, (firsts.get(name) ?? 0) + 1)
    const mean = [...firsts.values()].reduce((sum, count) => sum + count, 0) / MUTATIONS.length
    for (const [name, count] of firsts) expect(count, name).toBeLessThanOrEqual(3 * mean)
  })

  it('rewrites some logs, valid and broken, into the older shapes readers upgrade, and marks their probes', () => {
    const older = RUNS.filter(run => run.olderShapes === true)
    expect(older.length).toBeGreaterThan(RUNS.length / 5)
    expect(older.some(run => run.mutation === undefined) && older.some(run => run.mutation !== undefined)).toBe(true)
    expect(older.some(run => run.events.some(event => (event as { type: string }).type === 'steering/message'))).toBe(true)
    expect(deriveProbe(older[0]!, 'load')!.olderShapes).toBe(true)
    expect(deriveProbe(RUNS.find(run => run.olderShapes === undefined)!, 'load')!.olderShapes).toBeUndefined()
  })

  it('ends some valid logs with a turn that leaves a tool result without its call on the surface', () => {
    // The model's replaces come from plugins (checkpoints, a few of them written with the kind "user",
    // and notes): a replace by the user that names no plugin is the edit's.
    const byUser = (event: unknown): boolean => {
      const { type, surfaceOp, data } = event as { type: string; surfaceOp?: unknown; data: { source?: { kind?: string; plugin?: string } } }
      return type === 'user/message' && typeof surfaceOp === 'object' && data.source?.kind === 'user' && data.source.plugin === undefined
    }
    const orphaning = VALID_RUNS.filter(run => run.olderShapes === undefined && run.events.length > 2 && byUser(run.events.at(-2)))
    expect(orphaning.length).toBeGreaterThan(10)
    for (const run of orphaning) {
      const input = { header: run.header, events: run.events }
      expect(reference.relations(input)).toEqual({ ok: true, value: { violations: [] } })
      const balance = reference.regionBalance({ ...input, seq: run.events.length - 2 } as never)
      expect(balance.ok ? undefined : balance.error.code).toBe('REGION_ORPHAN_RESULT')
    }
  })

  it('gives some broken logs a second fault, and names both operators', () => {
    const twice = RUNS.filter(run => operatorsOf(run).length === 2)
    expect(twice.length).toBeGreaterThan(50)
    const names = new Set(MUTATIONS.map(operator => operator.name))
    for (const run of twice) expect(operatorsOf(run).every(name => names.has(name)), run.mutation).toBe(true)
  })
})

describe('the fuzzer\'s probes', () => {
  it('fork a valid log between turns, where FORK-3 lets it cut, at a boundary drawn among those', () => {
    // Not the probes at the boundary -0, which FORK-2 rejects whatever the log, nor those at a number that
    // is no seq or with no boundary, which take no drawn boundary (fork-boundary.test.ts).
    const forks = VALID_RUNS.map(run => withPlan(run, { boundary: { among: 'between-turns', at: 999 } }))
      .filter(run => deriveProbe(run, 'fork')!.variant === undefined && boundaryOffLog(run.plan.batchSeed, run.events.length) === undefined)
    const results = forks.map(run => reference.fork({ header: run.header, events: run.events, ...deriveProbe(run, 'fork')!.extra } as never))
    const rejections = results.filter(result => !result.ok).map(result => (result as { error: { code: string } }).error.code)
    expect(rejections.filter(code => code === 'FORK_OPEN_TURN').length).toBeLessThan(forks.length / 10)
    expect(results.filter(result => result.ok).length).toBeGreaterThan(forks.length / 2)
  })

  it('ask the request folds about a request record\'s own seq', () => {
    const withRecords = VALID_RUNS.filter(run => run.events.some(event => (event as { type: string }).type === 'request/header'))
    expect(withRecords.length).toBeGreaterThan(100)
    for (const run of withRecords) {
      const probe = deriveProbe(withPlan(run, { atSeq: { among: 'request-records', at: 500 } }), 'requestHeader')!
      const event = run.events[probe.extra['atSeq'] as number] as { type: string }
      expect(['request/header', 'request/context']).toContain(event.type)
    }
  })

  it('append a drawn event of the log onto the events before it', () => {
    const run = VALID_RUNS.find(candidate => candidate.events.length >= 20)!
    const middle = Math.floor(run.events.length / 2)
    const probe = deriveProbe(withPlan(run, { appendAt: 500 }), 'append')!
    const { seq: _seq, time, ignorable: _ignorable, ...members } = run.events[middle] as Record<string, unknown>
    expect(probe.events).toEqual(run.events.slice(0, middle))
    expect(probe.candidate).toEqual(members)
    expect(probe.candidateTime).toBe(time)
    expect(deriveProbe(withPlan(run, { appendAt: undefined }), 'append')!.events).toEqual(run.events.slice(0, -1))
  })

  it('give append the run\'s session header, as an append step gets its case\'s, for the legacy message ids of its log', () => {
    const run = RUNS.find(candidate => candidate.olderShapes === true && candidate.events.length > 1 && deriveProbe(candidate, 'append') !== undefined)!
    const probe = deriveProbe(run, 'append')!
    expect(run.header).toBeDefined()
    expect(probe.header).toBe(run.header)
    expect(probeInput(probe)).toEqual({ header: run.header, events: probe.events, candidate: probe.candidate, time: probe.candidateTime })
    expect(Object.keys(probeInput({ ...probe, header: undefined }))).toEqual(['events', 'candidate', 'time'])
  })

  it('offer the event a load or relations operator broke to the writer too, and the shrinker keeps track of it', () => {
    const broken = RUNS.filter(run => run.faultSeq !== undefined && run.faultSeq > 0 && run.faultSeq < run.events.length - 1)
    expect(broken.length).toBeGreaterThan(100)
    for (const run of broken.slice(0, 50)) {
      const probe = deriveProbe(withPlan(run, { appendAt: undefined }), 'append')
      const record = run.events[run.faultSeq!]
      // A record that is no object is checked below.
      if (typeof record !== 'object' || record === null || Array.isArray(record)) continue
      // A fault in a member of the record's own reaches no writer (probes.ts, holdsForeignFault).
      if ('extra' in record) {
        expect(probe, run.mutation).toBeUndefined()
        continue
      }
      expect(probe!.events).toEqual(run.events.slice(0, run.faultSeq))
      expect((probe!.candidate as { type: unknown }).type).toBe((run.events[run.faultSeq!] as { type: unknown }).type)
    }
    // A record that is no object is the candidate itself, written verbatim (ENV-1 for the writer too).
    const notObject = broken.find(run => run.mutation === 'record-not-object')!
    const record = notObject.events[notObject.faultSeq!]
    expect(record === null || typeof record !== 'object' || Array.isArray(record)).toBe(true)
    const probe = deriveProbe(withPlan(notObject, { appendAt: undefined }), 'append')!
    expect(probe.candidate).toEqual(record)
    expect(probe.verbatimCandidate).toBe(true)
    const run = broken[0]!
    expect(withoutEvents(run, new Set([0])).faultSeq).toBe(run.faultSeq! - 1)
    expect(withoutEvents(run, new Set([run.faultSeq!])).faultSeq).toBeUndefined()
    expect(withoutEvents(run, new Set([run.events.length - 1])).faultSeq).toBe(run.faultSeq)
  })

  it('store a log a writer could have written, or one whose first fault is outside lossless JSON, and no other (STORE-1)', () => {
    const run = VALID_RUNS.find(candidate => candidate.olderShapes === undefined && candidate.events.length >= 5)!
    const probe = deriveProbe(run, 'store')!
    expect(probe.extra['batches']).toSatisfy((batches: unknown[][]) => batches.length > 0 && batches.every(batch => batch.length > 0))
    expect((probe.extra['batches'] as unknown[][]).flat()).toEqual(run.events)
    expect(probe.extra['header']).toEqual(run.header)
    expect(deriveProbe({ ...run, header: undefined }, 'store')!.extra['header']).toEqual({ version: 0, id: 'fuzz-store', createdAt: 1000 })
    const withEventAt = (index: number, event: Record<string, unknown>): DrawnRun => {
      const events = [...run.events] as Record<string, unknown>[]
      events[index] = { ...events[index], ...event }
      return { ...run, events }
    }
    expect(deriveProbe(withEventAt(2, { time: Number.NaN }), 'store')).toBeDefined()
    expect(deriveProbe(withEventAt(2, { seq: 7 }), 'store')).toBeUndefined()
    expect(deriveProbe({ ...run, events: [] }, 'store')).toBeUndefined()
    const older = VALID_RUNS.filter(candidate => candidate.olderShapes === true)
    expect(older.length).toBeGreaterThan(0)
    for (const olderRun of older) expect(deriveProbe(olderRun, 'store')).toBeUndefined()
  })

  it('keep a log holding a value JSON text cannot carry out of the JSONL probes, which are defined for none (JSONL-4)', () => {
    const run = VALID_RUNS.find(candidate => candidate.events.length >= 5)!
    expect(deriveProbe(run, 'encodeJsonl')).toBeDefined()
    expect(deriveProbe(run, 'decodeJsonl')).toBeDefined()
    for (const fault of [-0, Number.NaN, undefined, 5n]) {
      const events = structuredClone(run.events) as Record<string, unknown>[]
      events[2] = { ...events[2], time: fault }
      const broken = { ...run, events }
      expect(deriveProbe(broken, 'encodeJsonl'), String(fault)).toBeUndefined()
      expect(deriveProbe(broken, 'decodeJsonl'), String(fault)).toBeUndefined()
      expect(deriveProbe(broken, 'load'), String(fault)).toBeDefined()
    }
  })

  it('give encodeJsonl only a header chapter 03 accepts, which is all it is defined for (JSONL-5); a run without one gets the store header', () => {
    const run = VALID_RUNS.find(candidate => candidate.events.length >= 5)!
    const headerOf = (header: unknown): unknown => deriveProbe({ ...run, header }, 'encodeJsonl')?.extra['header']
    expect(headerOf(undefined)).toEqual({ version: 0, id: 'fuzz-store', createdAt: BASE_TIME })
    expect(headerOf({ version: 0, id: 's', createdAt: 1, cwd: '/w' })).toEqual({ version: 0, id: 's', createdAt: 1, cwd: '/w' })
    for (const header of [null, [], { version: 1, id: 's', createdAt: 1 }, { version: 0, id: 's', createdAt: 1, delegationDepth: null }, { version: 0, id: 's', createdAt: 1, cwd: 'relative' }]) {
      expect(deriveProbe({ ...run, header }, 'encodeJsonl'), JSON.stringify(header)).toBeUndefined()
    }
  })

  it('give append the builder\'s clock for a broken time, and no probe for a record whose own member holds the fault', () => {
    const run = VALID_RUNS.find(candidate => candidate.events.length >= 5)!
    const events = structuredClone(run.events) as Record<string, unknown>[]
    events[2] = { ...events[2], time: Number.NaN }
    const atThird = (logEvents: unknown[]): DrawnRun => withPlan({ ...run, events: logEvents, faultSeq: 2 }, { appendAt: undefined })
    const brokenTime = deriveProbe(atThird(events), 'append')!
    // PROC-4 defines append for a writer's clock only; a replayed vector with no time reads BASE_TIME + 2.
    expect(brokenTime.candidateTime).toBe(1_000 + 2)
    expect(brokenTime.verbatimCandidate).toBe(false)
    events[2] = { ...run.events[2] as object, extra: -0 }
    expect(deriveProbe(atThird(events), 'append')).toBeUndefined()
    // A member of its own holding a JSON value is the writer's to refuse (ENV-2), so it is probed.
    events[2] = { ...run.events[2] as object, extra: 0 }
    const foreign = deriveProbe(atThird(events), 'append')!
    expect(foreign.verbatimCandidate).toBe(true)
    expect(foreign.candidateTime).toBe(1_000 + 2)
  })

  it('let the shrinker keep a fault in place of a seq or a time: -0 and 2^53 name no seq, and no clock replaces it', () => {
    const run = VALID_RUNS.find(candidate => candidate.events.length >= 5)!
    const events = structuredClone(run.events) as Record<string, unknown>[]
    events[3] = { ...events[3], time: -0, sourceEventSeqs: [-0, 1] }
    events[4] = { ...events[4], seq: 2 ** 53 }
    const cut = withoutEvents({ ...run, events }, new Set([0]))
    expect(Object.is((cut.events[2] as { sourceEventSeqs: unknown[] }).sourceEventSeqs[0], -0)).toBe(true)
    expect((cut.events[2] as { sourceEventSeqs: unknown[] }).sourceEventSeqs[1]).toBe(0)
    // Shifted down, 2^53 would become a usable seq, and ENV_SEQ_INVALID a contiguity fault.
    expect((cut.events[3] as { seq: unknown }).seq).toBe(2 ** 53)
    const clocked = withBuilderClock({ ...run, events })
    expect(Object.is((clocked.events[3] as { time: unknown }).time, -0)).toBe(true)
    expect((clocked.events[4] as { time: unknown }).time).toBe(1_000 + 4)
  })

  it('compare request headers that are equal and headers that differ, the log\'s own or a fallback when it stores none', () => {
    const values = RUNS.map(run => {
      const result = reference.headerEquals(deriveProbe(run, 'headerEquals')!.extra as never)
      return result.ok ? result.value : result.error.code
    })
    expect(values.filter(value => value === true).length).toBeGreaterThan(RUNS.length / 3)
    expect(values.filter(value => value === false).length).toBeGreaterThan(RUNS.length / 3)
    const stored = VALID_RUNS.find(run => run.events.some(event => (event as { type: string }).type === 'request/header'))!
    const { left, right } = deriveProbe(stored, 'headerEquals')!.extra as { left: { config: object }; right: { config: object } }
    expect(left).not.toBe(right)
    expect(left.config).not.toBe(right.config)
    const shrunk = deriveProbe({ ...stored, events: [] }, 'headerEquals')!
    expect(shrunk.events).toEqual([])
    expect(JSON.stringify(shrunk.extra)).toContain('"provider":"deepseek"')
  })

  it('write a text into a vector file code unit for code unit, those no one would see as escapes', () => {
    const text = 'a \u0000 \u007f \u0085 \u2028 \ud800 \ufeff \uffff b'
    const probe = { operation: 'artifactPath' as const, events: [], extra: { sessionId: text, cwd: '/w' } }
    const disagreement = { operation: 'artifactPath', reference: 'accepts', adapter: 'differs at $.path', detail: 'planted', expected: { ok: true, value: { path: 'p' } }, actual: { kind: 'result', result: { ok: true, value: { path: 'q' } } } } as Disagreement
    const { text: written } = renderVector(probe, disagreement, { adapterName: 'planted', seed: 1, run: 0, olderShapes: false })
    expect(written).not.toMatch(/[\u0000\u007f-\u009f\u2028\ud800-\udfff\ufeff\uffff]/)
    for (const escape of ['\\0', '\\u007f', '\\u0085', '\\u2028', '\\ud800', '\\ufeff', '\\uffff']) expect(written).toContain(escape)
    const [written0] = (parse(written) as { cases: { steps: { artifactPath: { sessionId: string } }[] }[] }).cases
    expect(written0!.steps[0]!.artifactPath.sessionId).toBe(text)
  })

  it('name, for a disagreement over any operation\'s value, the requirement that states that value', () => {
    // Written out here, so that a wrong or swapped entry of the writer's table fails.
    const stating: Record<string, string> = {
      load: 'PROC-5', append: 'PROC-4', surface: 'SURF-10', messages: 'DER-1', requestHeader: 'HDR-4', requestContext: 'HDR-8',
      headerEquals: 'HDR-5', relations: 'PROC-7', repair: 'REPAIR-5', resume: 'SEED-10', compactionState: 'COMP-17',
      regionBalance: 'REGION-6', fork: 'FORK-8', decodeJsonl: 'JSONL-4', encodeJsonl: 'JSONL-8', artifactPath: 'JSONL-1', store: 'STORE-2',
    }
    expect([...PROBED_OPERATIONS].sort()).toEqual(Object.keys(stating).sort())
    for (const operation of PROBED_OPERATIONS) {
      const disagreement = { operation, expected: { ok: true, value: null }, adapter: 'differs at $' } as unknown as Disagreement
      expect(requirementsOf(disagreement), operation).toEqual([stating[operation]])
    }
  })

  it('name, for a rejection the reference gives, the requirements of the operation\'s profile first', () => {
    const rejecting = (operation: string): Disagreement => ({ operation, expected: { ok: false, error: { code: 'MESSAGE_SOURCE_INVALID', seq: 3 } }, adapter: 'accepts' }) as unknown as Disagreement
    // VOC-8 and VOC-11 (reader, writer) and REPAIR-13 (repair) name the code.
    expect(requirementsOf(rejecting('load'))).toEqual(['VOC-8', 'VOC-11', 'REPAIR-13'])
    expect(requirementsOf(rejecting('repair'))).toEqual(['REPAIR-13', 'VOC-8', 'VOC-11'])
    expect(requirementsOf(rejecting('resume'))).toEqual(['REPAIR-13', 'VOC-8', 'VOC-11'])
  })

  it('leave a decoded artifact\'s last kept record line whole but without its line feed', () => {
    const run = VALID_RUNS.find(candidate => candidate.events.length >= 20 && deriveProbe(candidate, 'decodeJsonl')!.variant === undefined)!
    const text = deriveProbe(withPlan(run, { damage: 'unterminated', damageAt: 500 }), 'decodeJsonl')!.extra['text'] as string
    const lines = text.split('\n')
    expect(lines.length).toBeGreaterThan(2)
    expect(() => JSON.parse(lines.at(-1)!)).not.toThrow()
    const whole = deriveProbe(withPlan(run, { damage: 'none' }), 'decodeJsonl')!.extra['text'] as string
    expect(whole.startsWith(`${text}\n`)).toBe(true)
  })

  it('edit the stored headers of a requestHeader probe only where one is in force at its seq, and mark it', () => {
    const storesHeader = (event: unknown): boolean => (event as { type: string }).type === 'request/header'
    // Runs whose log no vocabulary-growth draw ends with a team/* event (vocabulary-growth.ts).
    const drawn = VALID_RUNS.filter(run => run.events.length > 0 && !storesHeader(run.events[0]) && withStoredHeadersOutsideHdr1(run.events, run.plan.batchSeed) !== undefined
      && withVocabularyGrowth(run.events, run.plan.batchSeed, false) === undefined)
    expect(drawn.length).toBeGreaterThan(10)
    for (const run of drawn) {
      const atStart = deriveProbe(withPlan(run, { atSeq: { among: 'events', at: 0 } }), 'requestHeader')!
      expect(atStart.extra['atSeq']).toBe(0)
      expect(atStart.variant).toBeUndefined()
      expect(atStart.events).toBe(run.events)
      const atEnd = deriveProbe(withPlan(run, { atSeq: { among: 'events', at: 999 } }), 'requestHeader')!
      expect(atEnd.variant).toBe(OUTSIDE_HDR_1_VARIANT)
      expect(atEnd.events).not.toEqual(run.events)
    }
  })

  it('leave an artifact whose packed row they edit otherwise whole: one line differs, and no damage', () => {
    // A run whose encodeJsonl probe keeps the chunks' member order (chunk-order.ts), so that it encodes
    // the artifact the decodeJsonl probe edits.
    const keepsChunkOrder = (candidate: DrawnRun): boolean => {
      const batches: unknown[][] = [[]]
      return withChunkMembersReversed(batches, candidate.plan.batchSeed) === batches
    }
    const run = VALID_RUNS.find(candidate => deriveProbe(candidate, 'decodeJsonl')?.variant === STORED_ROW_VARIANT && keepsChunkOrder(candidate))!
    const text = (damage: RunPlan['damage']): string => deriveProbe(withPlan(run, { damage, damageAt: 500 }), 'decodeJsonl')!.extra['text'] as string
    const intact = reference.encodeJsonl(deriveProbe(run, 'encodeJsonl')!.extra as { header: unknown; batches: unknown[][] })
    expect(intact.ok).toBe(true)
    expect(text('tear')).toBe(text('none'))
    const lines = text('none').split('\n')
    const written = (intact as { value: { text: string } }).value.text.split('\n')
    expect(lines).toHaveLength(written.length)
    expect(lines.filter((line, index) => line !== written[index])).toHaveLength(1)
  })
})
