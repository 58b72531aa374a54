// Properties of the surface fold, provenance and the derived messages (spec chapters 00, 05, 06, 08),
// checked on generated valid logs through the reference's public operations.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import {
  MUTATIONS, applicableMutations, candidateOf, chooserFromInts, generatedLogArbitrary, type LogEvent,
} from '../../conformance/generators/index.ts'
import { accepted, messagesOf, runs, surfaceOf, violationsOf, type Log, type SurfaceValue } from './support.ts'

const SURFACE_TYPES = new Set(['user/message', 'assistant/message', 'tool/result'])

type Replace = { op: 'replace'; start: number; end: number }
const replaceOf = (event: LogEvent): Replace | undefined => (typeof event.surfaceOp === 'object' ? event.surfaceOp : undefined)

/** DER-3..7: the message one event projects to, or undefined. */
function projection(event: LogEvent): unknown {
  const data = event.data as Record<string, unknown>
  if (event.type === 'user/message') return data
  if (event.type === 'tool/result') return data['message']
  if (event.type !== 'assistant/message') return undefined
  const message = data['message'] as { content: unknown[] }
  return message.content.length === 0 ? undefined : message
}

/** SURF-6 and SURF-10 applied to one more event: the fold value after it, from the value before it. */
function foldOneMore(before: SurfaceValue, event: LogEvent): SurfaceValue {
  if (!SURFACE_TYPES.has(event.type)) return before
  const op = replaceOf(event)
  if (op === undefined) return { ...before, nodes: [...before.nodes, event.seq] }
  const from = before.nodes.indexOf(op.start)
  const to = before.nodes.indexOf(op.end)
  return {
    nodes: [...before.nodes.slice(0, from), event.seq, ...before.nodes.slice(to + 1)],
    replacements: [...before.replacements, { seq: event.seq, start: op.start, end: op.end, shadowedSeqs: before.nodes.slice(from, to + 1) }],
    generation: before.generation + 1,
  }
}

/** The accepted event append must return for `event`'s candidate: the event without `ignorable`. */
function asAppended(event: LogEvent): LogEvent {
  const { ignorable: _ignorable, ...rest } = event
  return rest
}

describe('folds over generated logs', () => {
  it('P3: every fold is deterministic and leaves its input untouched', () => {
    const folds = ['surface', 'messages', 'relations', 'repair', 'compactionState', 'requestHeader', 'requestContext'] as const
    fc.assert(fc.property(generatedLogArbitrary(), log => {
      const input = { header: log.header, events: log.events }
      const snapshot = structuredClone(input)
      for (const name of folds) {
        const first = reference[name]({ ...input })
        expect(reference[name]({ ...input }), name).toEqual(first)
        expect(reference[name](structuredClone(input)), name).toEqual(first)
        expect(reference[name](JSON.parse(JSON.stringify(input))), name).toEqual(first)
      }
      expect(input).toEqual(snapshot)
    }), runs(50))
  })

  it('P4: streaming equals batch: appending one by one gives, at every prefix, the fold of that prefix', () => {
    fc.assert(fc.property(generatedLogArbitrary({ maxSize: 50 }), log => {
      const streamed: LogEvent[] = []
      let surface: SurfaceValue = { nodes: [], replacements: [], generation: 0 }
      let messages: unknown[] = []
      for (const event of log.events) {
        const appended = accepted(reference.append({ header: log.header, events: streamed, candidate: candidateOf(event), time: event.time }), `append of seq ${event.seq}`)
        expect(appended).toEqual(asAppended(event))
        streamed.push(event)
        surface = foldOneMore(surface, event)
        const prefix = { header: log.header, events: streamed }
        expect(surfaceOf(prefix)).toEqual(surface)
        if (SURFACE_TYPES.has(event.type)) {
          const projected = projection(event)
          messages = replaceOf(event) === undefined
            ? (projected === undefined ? messages : [...messages, projected])
            : surface.nodes.map(seq => projection(log.events[seq]!)).filter(message => message !== undefined)
        }
        expect(messagesOf(prefix)).toEqual(messages)
      }
      expect(surfaceOf(log)).toEqual(surface)
    }), runs(25))
  })

  it('P6: every shadowed seq is cited by its replacer, and the replacements are the replace events', () => {
    fc.assert(fc.property(generatedLogArbitrary(), log => {
      const surface = surfaceOf(log)
      const replaces = log.events.filter(event => replaceOf(event) !== undefined)
      expect(surface.replacements.map(replacement => replacement.seq)).toEqual(replaces.map(event => event.seq))
      expect(surface.generation).toBe(replaces.length)
      for (const replacement of surface.replacements) {
        const cited = new Set(log.events[replacement.seq]!.sourceEventSeqs)
        for (const seq of replacement.shadowedSeqs) expect(cited.has(seq), `seq ${replacement.seq} cites ${seq}`).toBe(true)
        const op = replaceOf(log.events[replacement.seq]!)!
        expect([replacement.start, replacement.end]).toEqual([op.start, op.end])
        expect([replacement.shadowedSeqs[0], replacement.shadowedSeqs.at(-1)]).toEqual([op.start, op.end])
      }
    }), runs(150))
  })

  it('P7: no event is lost: each seq once in the log, each surface event a node or shadowed exactly once', () => {
    fc.assert(fc.property(generatedLogArbitrary(), log => {
      const loaded = accepted(reference.load({ header: log.header, events: log.events }), 'load') as LogEvent[]
      expect(loaded.map(event => event.seq)).toEqual(log.events.map((_, index) => index))
      const surface = surfaceOf(log)
      const seen = [...surface.nodes, ...surface.replacements.flatMap(replacement => replacement.shadowedSeqs)].sort((a, b) => a - b)
      const surfaceSeqs = log.events.filter(event => SURFACE_TYPES.has(event.type)).map(event => event.seq)
      expect(seen).toEqual(surfaceSeqs)
      const replacers = new Set(surface.replacements.map(replacement => replacement.seq))
      for (const seq of surface.nodes) expect(log.events[seq]!.surfaceOp === 'append' || replacers.has(seq)).toBe(true)
    }), runs(150))
  })

  it('P13: derived messages never outnumber surface nodes, and are exactly their projections', () => {
    fc.assert(fc.property(generatedLogArbitrary(), log => {
      const nodes = surfaceOf(log).nodes
      const messages = messagesOf(log)
      expect(messages.length).toBeLessThanOrEqual(nodes.length)
      expect(messages).toEqual(nodes.map(seq => projection(log.events[seq]!)).filter(message => message !== undefined))
    }), runs(150))
  })

  it('P5: a rejected append leaves the log and every fold as they were', () => {
    // The append mutation operators break event i of a valid log; appending the broken candidate to
    // the events before it is rejected, the folds of that prefix are unchanged, and the unbroken
    // event is still accepted after the rejection.
    const appendMutations = MUTATIONS.filter(mutation => mutation.operation === 'append')
    const broken = fc.record({ log: generatedLogArbitrary({ maxSize: 60 }), pick: fc.nat(), choices: fc.array(fc.nat(), { maxLength: 4 }) })
    fc.assert(fc.property(broken, ({ log, pick, choices }) => {
      const applicable = applicableMutations(log, appendMutations)
      fc.pre(applicable.length > 0)
      const mutated = applicable[pick % applicable.length]!.apply(log, chooserFromInts(choices))
      const event = log.events[mutated.seq!]!
      const prefix: Log = { header: log.header, events: mutated.events }
      const before = { surface: surfaceOf(prefix), messages: messagesOf(prefix), violations: violationsOf(prefix), events: structuredClone(prefix.events) }
      const rejected = reference.append({ ...prefix, candidate: mutated.candidate, time: event.time })
      expect(rejected.ok ? undefined : rejected.error.code).toBe(mutated.code)
      expect(prefix.events).toEqual(before.events)
      expect(surfaceOf(prefix)).toEqual(before.surface)
      expect(messagesOf(prefix)).toEqual(before.messages)
      expect(violationsOf(prefix)).toEqual(before.violations)
      expect(accepted(reference.append({ ...prefix, candidate: candidateOf(event), time: event.time }), 'append')).toEqual(asAppended(event))
    }), runs(150))
  })
})
