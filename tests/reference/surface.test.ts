import { describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import { applySurfacePlan, emptySurface, planSurfaceEvent, surfaceNodes } from '../../reference/surface.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import { event, replace, result, todo, turnStart, user } from './helpers.ts'

/** The worked example of chapter 05: nodes [1,3,5], then seq 7 replaces 1..3, giving [7,5]. */
function workedExample(): SessionEvent[] {
  return [todo(0), user(1), todo(2), user(3), todo(4), user(5), todo(6), user(7, replace(1, 3, [1, 3]))]
}

function candidate(op: unknown, sources: number[]): Record<string, unknown> {
  return { type: 'user/message', data: user(8).data, surfaceOp: op, sourceEventSeqs: sources }
}

describe('surface fold', () => {
  it('folds the worked example', () => {
    expect(reference.surface({ events: workedExample() })).toEqual({
      ok: true,
      value: { nodes: [7, 5], replacements: [{ seq: 7, start: 1, end: 3, shadowedSeqs: [1, 3] }], generation: 1 },
    })
  })

  it('accepts a numerically reversed range in positional order (EDGE-1)', () => {
    const events = workedExample()
    const appended = reference.append({ events, candidate: candidate({ op: 'replace', start: 7, end: 5 }, [7, 5]), time: 9 })
    expect(appended.ok).toBe(true)
    const after = reference.surface({ events: [...events, (appended as { value: SessionEvent }).value] })
    expect(after).toMatchObject({ ok: true, value: { nodes: [8], generation: 2 } })
    expect((after as { value: { replacements: unknown[] } }).value.replacements[1]).toEqual({ seq: 8, start: 7, end: 5, shadowedSeqs: [7, 5] })
  })

  it('rejects a numerically ordered range that is positionally reversed (EDGE-1)', () => {
    const appended = reference.append({ events: workedExample(), candidate: candidate({ op: 'replace', start: 5, end: 7 }, [7, 5]), time: 9 })
    expect(appended).toMatchObject({ ok: false, error: { code: 'SURFACE_REPLACE_REVERSED', seq: 8 } })
  })

  it('looks endpoints up by current membership (EDGE-2)', () => {
    const events = workedExample()
    const shadowed = reference.append({ events, candidate: candidate({ op: 'replace', start: 1, end: 5 }, [1, 5]), time: 9 })
    const logOnly = reference.append({ events, candidate: candidate({ op: 'replace', start: 6, end: 7 }, [6, 7]), time: 9 })
    const endMissing = reference.append({ events, candidate: candidate({ op: 'replace', start: 7, end: 3 }, [7, 3]), time: 9 })
    expect(shadowed).toMatchObject({ ok: false, error: { code: 'SURFACE_REPLACE_START_NOT_FOUND' } })
    expect(logOnly).toMatchObject({ ok: false, error: { code: 'SURFACE_REPLACE_START_NOT_FOUND' } })
    expect(endMissing).toMatchObject({ ok: false, error: { code: 'SURFACE_REPLACE_END_NOT_FOUND' } })
  })

  it('says which part of an invalid surfaceOp is wrong (SURF-2)', () => {
    const messageFor = (op: unknown): string => {
      const appended = reference.append({ events: workedExample(), candidate: candidate(op, [7]), time: 9 })
      expect(appended).toMatchObject({ ok: false, error: { code: 'SURFACE_OP_INVALID', seq: 8 } })
      return (appended as { error: { message: string } }).error.message
    }
    const says = (op: unknown, why: string): void => expect(messageFor(op)).toBe(`user/message carries an invalid surfaceOp: ${why}`)
    says('replace', 'it is neither "append" nor a replace object')
    says(null, 'it is neither "append" nor a replace object')
    says([7, 7], 'it is neither "append" nor a replace object')
    says({ op: 'replace', start: 7, end: 7, note: 1 }, 'a replace object has no member "note"')
    says({ start: 7, end: 7 }, 'its op is missing or not "replace"')
    says({ op: 'append', start: 7, end: 7 }, 'its op is missing or not "replace"')
    says({ op: 'replace', end: 7 }, 'its start is missing or not a non-negative safe integer')
    says({ op: 'replace', start: -1, end: 7 }, 'its start is missing or not a non-negative safe integer')
    says({ op: 'replace', start: 7, end: 2 ** 53 }, 'its end is missing or not a non-negative safe integer')
  })

  it('checks provenance coverage against the nodes actually shadowed', () => {
    const appended = reference.append({ events: workedExample(), candidate: candidate({ op: 'replace', start: 7, end: 5 }, [7]), time: 9 })
    expect(appended).toMatchObject({ ok: false, error: { code: 'PROVENANCE_INCOMPLETE' } })
  })

  it('reports the first provenance step over the whole list (PROV-8)', () => {
    const events = [todo(0), todo(1), todo(2), todo(3)]
    const withCandidate = (sources: unknown[]): unknown => reference.append({ events, candidate: { type: 'user/message', data: user(4).data, surfaceOp: 'append', sourceEventSeqs: sources }, time: 5 })
    expect(withCandidate([9, 2, 2, 'x'])).toMatchObject({ ok: false, error: { code: 'PROVENANCE_ELEMENT_INVALID' } })
    expect(withCandidate([9, 2, 2])).toMatchObject({ ok: false, error: { code: 'PROVENANCE_DUPLICATE' } })
    expect(withCandidate([9, 2])).toMatchObject({ ok: false, error: { code: 'PROVENANCE_NOT_EARLIER' } })
  })

  it('restricts tool/result rewrites (REWR-1..3)', () => {
    const events = [turnStart(0, 1), result(1, 1, 1, 'c1'), user(2)]
    const rewrite = (data: unknown, op: unknown, sources: number[]): unknown =>
      reference.append({ events, candidate: { type: 'tool/result', data, surfaceOp: op, sourceEventSeqs: sources }, time: 9 })
    const original = events[1]!.data as { message: { content: { content: unknown }[] } }
    const shortened = structuredClone(original)
    shortened.message.content[0]!.content = [{ type: 'text', text: 'pruned' }]
    expect(rewrite(shortened, { op: 'replace', start: 1, end: 1 }, [1])).toMatchObject({ ok: true })
    expect(rewrite(shortened, { op: 'replace', start: 1, end: 2 }, [1, 2])).toMatchObject({ ok: false, error: { code: 'REWRITE_SPAN_INVALID' } })
    expect(rewrite(shortened, { op: 'replace', start: 2, end: 2 }, [2])).toMatchObject({ ok: false, error: { code: 'REWRITE_TARGET_INVALID' } })
    const flipped = structuredClone(shortened) as { message: { content: Record<string, unknown>[] } }
    flipped.message.content[0]!['isError'] = false
    expect(rewrite(flipped, { op: 'replace', start: 1, end: 1 }, [1])).toMatchObject({ ok: false, error: { code: 'REWRITE_DATA_CHANGED' } })
  })

  it('folds a window from its base seq: earlier seqs are not nodes, but may be cited (SURF-3, ENV-10)', () => {
    const window = [user(10), todo(11), user(12, replace(10, 10, [3, 10]))]
    expect(reference.surface({ events: window, baseSeq: 10 })).toEqual({
      ok: true, value: { nodes: [12], replacements: [{ seq: 12, start: 10, end: 10, shadowedSeqs: [10] }], generation: 1 },
    })
    const reaching = [user(10), user(11, replace(3, 10, [3, 10]))]
    expect(reference.surface({ events: reaching, baseSeq: 10 })).toMatchObject({ ok: false, error: { code: 'SURFACE_REPLACE_START_NOT_FOUND', seq: 11 } })
    expect(reference.surface({ events: window, baseSeq: 9 })).toMatchObject({ ok: false, error: { code: 'ENV_SEQ_NOT_CONTIGUOUS', seq: 10 } })
  })

  it('rejects surface markers on log-only events, even null (SURF-1)', () => {
    const loaded = reference.load({ events: [event('todo/write', 0, { todos: [] }, { surfaceOp: null })] })
    expect(loaded).toMatchObject({ ok: false, error: { code: 'SURFACE_OP_NOT_ALLOWED', seq: 0 } })
  })
})

// ---- the linked-list fold against a plain array model, on random logs ------------------------

/** A small deterministic PRNG (LCG), so failures reproduce. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

type ModelOutcome = { code: string } | { nodes: number[] }

/** What a plain array fold says about a replace of [start, end] citing `sources`. */
function modelReplace(nodes: number[], start: number, end: number, sources: number[], seq: number): ModelOutcome {
  const from = nodes.indexOf(start)
  if (from < 0) return { code: 'SURFACE_REPLACE_START_NOT_FOUND' }
  const to = nodes.indexOf(end)
  if (to < 0) return { code: 'SURFACE_REPLACE_END_NOT_FOUND' }
  if (from > to) return { code: 'SURFACE_REPLACE_REVERSED' }
  if (!nodes.slice(from, to + 1).every(node => sources.includes(node))) return { code: 'PROVENANCE_INCOMPLETE' }
  return { nodes: [...nodes.slice(0, from), seq, ...nodes.slice(to + 1)] }
}

describe('surface fold against an array model', () => {
  it('agrees on random logs with replaces anywhere, including rejected ones', () => {
    const seen = { replaced: 0, rejected: 0 }
    for (let round = 0; round < 20; round++) {
      const next = random(round + 1)
      const state = emptySurface()
      const log: SessionEvent[] = []
      let model: number[] = []
      for (let seq = 0; seq < 400; seq++) {
        const pick = (): number => Math.floor(next() * (seq + 2))
        let candidateEvent: SessionEvent
        let expected: ModelOutcome
        if (model.length === 0 || next() < 0.45) {
          candidateEvent = user(seq)
          expected = { nodes: [...model, seq] }
        } else {
          const position = Math.floor(next() * model.length)
          const start = next() < 0.85 ? model[position]! : pick()
          const end = next() < 0.85 ? model[Math.min(model.length - 1, position + Math.floor(next() * 3))]! : pick()
          const from = model.indexOf(start)
          const to = model.indexOf(end)
          const sources = from >= 0 && to >= from && next() < 0.9 ? model.slice(from, to + 1) : [start].filter(s => s < seq)
          candidateEvent = user(seq, replace(start, end, sources))
          expected = modelReplace(model, start, end, sources, seq)
        }
        const planned = planSurfaceEvent(state, candidateEvent, seq => log[seq])
        if ('code' in expected) {
          expect(planned.ok ? 'accepted' : planned.fault.code).toBe(expected.code)
          seen.rejected++
          log.push(todo(seq))
          continue
        }
        expect(planned.ok).toBe(true)
        if (planned.ok) applySurfacePlan(state, planned.plan)
        if (candidateEvent.surfaceOp !== 'append') seen.replaced++
        model = expected.nodes
        log.push(candidateEvent)
        expect(surfaceNodes(state)).toEqual(model)
        // The fold holds the surface and nothing more: a shadowed node leaves it.
        expect(state.nodes.size).toBe(model.length)
      }
    }
    expect(seen.replaced).toBeGreaterThan(1000)
    expect(seen.rejected).toBeGreaterThan(100)
  })
})
