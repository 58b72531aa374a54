// The generator is itself under test: every log it builds must be valid, and the facts its model
// records must be what a reader derives from the log.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import { generatedLogArbitrary, inOlderShapes, seededChooser, validLogArbitrary, type LogEvent } from '../../conformance/generators/index.ts'
import type { JsonObject } from '../../conformance/generators/events.ts'
import { accepted, closersOf, expectNoViolations, messagesOf, runs, surfaceOf } from './support.ts'

describe('the log generator', () => {
  it('P1: every generated log loads unchanged and keeps every relation', () => {
    fc.assert(fc.property(validLogArbitrary({ maxSize: 120 }), log => {
      const loaded = accepted(reference.load({ header: log.header, events: log.events }), 'load')
      expect(loaded).toEqual(log.events)
      expectNoViolations(log)
    }), runs(200))
  })

  it('P2: the model agrees with the reader on surface, header, context, brackets and closers', () => {
    fc.assert(fc.property(generatedLogArbitrary({ maxSize: 120 }), log => {
      const input = { header: log.header, events: log.events }
      expect(surfaceOf(input).nodes).toEqual(log.facts.nodes)
      expect(accepted(reference.requestHeader(input), 'requestHeader')).toEqual(log.facts.headerInForce)
      expect(accepted(reference.requestContext(input), 'requestContext')).toEqual(log.facts.contextInForce)
      const state = accepted(reference.compactionState(input), 'compactionState')
      expect(state.brackets).toEqual(log.facts.brackets)
      const last = log.facts.brackets.at(-1)
      const lockHeld = last !== undefined && last.endSeq === null
      expect(state.open === null).toBe(!lockHeld)
      if (state.open !== null) expect(state.open['live']).toBe(last?.outcome === 'orphaned-live')
      expect(closersOf(input)).toEqual(log.facts.closers)
      if (log.facts.closers.length > 0) expect(log.facts.ending).toBe('crash')
    }), runs(200))
  })

  it('P2b: at every seq, the header and the context in force are those of the last record at or before it', () => {
    /** HDR-4 and HDR-8 as plainly as they can be said: the latest record of the type in the prefix ending at `seq`, included. */
    const latest = (events: readonly LogEvent[], seq: number, type: string, take: (data: JsonObject) => unknown): unknown => {
      const record = events.slice(0, seq + 1).findLast(event => event.type === type)
      return record === undefined ? null : take(record.data as JsonObject)
    }
    fc.assert(fc.property(validLogArbitrary({ maxSize: 80 }), log => {
      for (const { seq } of log.events) {
        const input = { header: log.header, events: log.events, atSeq: seq }
        expect(accepted(reference.requestHeader(input), 'requestHeader')).toEqual(latest(log.events, seq, 'request/header', data => data['header']))
        expect(accepted(reference.requestContext(input), 'requestContext')).toEqual(latest(log.events, seq, 'request/context', data => data))
      }
    }), runs(100))
  })

  it('P16: a valid log in older shapes loads back to its surface, relations, messages and payloads', () => {
    /** What the upgrades cannot give back: message ids (they become legacy ids) and the aborted reasons (they become `legacy` or `disposed`). */
    const upgradesBack = (event: LogEvent): boolean => !['user/message', 'assistant/message', 'tool/result'].includes(event.type)
      && !(event.type === 'turn/end' && JSON.stringify(event.data).includes('"kind":"aborted"'))
    /** LEGACY-6: an error reason stored without a code gets the code UNKNOWN. */
    const withoutCode = (stored: unknown): string | undefined => {
      const reason = ((stored as LogEvent).data as JsonObject | undefined)?.['reason'] as JsonObject | undefined
      return (stored as LogEvent).type === 'turn/end' && reason?.['kind'] === 'error' && 'message' in reason && !('code' in reason) ? reason['message'] as string : undefined
    }
    const contentOf = (message: unknown): unknown => [(message as { role: unknown }).role, (message as { content: unknown }).content]
    fc.assert(fc.property(validLogArbitrary({ maxSize: 120 }), fc.integer(), (log, seed) => {
      const older = { header: log.header, events: inOlderShapes(log.events, seededChooser(seed)) }
      const upgraded = accepted(reference.load(older), 'load') as LogEvent[]
      expect(surfaceOf(older)).toEqual(surfaceOf(log))
      expectNoViolations(older)
      expect(messagesOf(older).map(contentOf)).toEqual(messagesOf(log).map(contentOf))
      for (const [index, event] of log.events.entries()) {
        const message = withoutCode(older.events[index])
        if (message !== undefined) expect(upgraded[index]!.data).toEqual({ ...(event.data as JsonObject), reason: { kind: 'error', error: { message, code: 'UNKNOWN' } } })
        else if (upgradesBack(event)) expect(upgraded[index]).toEqual(event)
        else expect(upgraded[index]!.type).toBe(event.type)
      }
    }), runs(150))
  })
})
