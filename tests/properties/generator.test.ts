// The generator is itself under test: every log it builds must be valid, and the facts its model
// records must be what a reader derives from the log.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import { generatedLogArbitrary, validLogArbitrary } from '../../conformance/generators/index.ts'
import { accepted, closersOf, expectNoViolations, runs, surfaceOf } from './support.ts'

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
})
