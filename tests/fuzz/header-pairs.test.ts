// The headerEquals pairs the fuzzer draws (conformance/fuzz/header-pairs.ts). Those with values outside
// HDR-1: each kind is drawn, marked as such, and the reference answers it as HDR-3 and HDR-5 say (worked
// out by hand below), so that a class of them (U20) says something about the builds, not about the
// fuzzer. And five that a careless comparison calls equal: each is drawn, and is different.
import { describe, expect, it } from 'vitest'
import { referenceAdapter } from '../../conformance/adapters/reference.ts'
import { headerPair } from '../../conformance/fuzz/header-pairs.ts'

/**
 * The edited member and its two values, as JSON ("absent" for none): with an empty log the pair edits
 * the fuzzer's fallback snapshot, which has none of stop, system and tools.
 */
function editOf(left: Record<string, unknown>, right: Record<string, unknown>): string {
  const memberOf = (snapshot: Record<string, unknown>, key: string): unknown => {
    const holder = key === 'stop' ? (snapshot['config'] as Record<string, unknown>) : snapshot
    return key in holder ? holder[key] : 'absent'
  }
  const key = ['stop', 'system', 'tools'].find(name => memberOf(left, name) !== 'absent' || memberOf(right, name) !== 'absent')!
  return JSON.stringify([key, memberOf(left, key), memberOf(right, key)])
}

// HDR-5: a stop that is no array is different from anything; HDR-3 drops a system that is no non-empty
// string and tools that are no array, so they compare as absent (and absent tools as []).
const EXPECTED: Record<string, boolean> = {
  '["stop","ab",["a","b"]]': false, '["stop",["a","b"],"ab"]': false,
  '["stop","END","END"]': false,
  // Stop elements that are lists are never strictly equal, even to equal lists.
  '["stop",[["END"]],[["END"]]]': false,
  // Nor is a stop of null, even against itself.
  '["stop",null,null]': false,
  '["system",null,null]': true,
  '["system",["x"],"absent"]': true, '["system","absent",["x"]]': true,
  '["tools","abc","absent"]': true, '["tools","absent","abc"]': true,
  '["tools",null,[]]': true, '["tools",[],null]': true,
}

describe('headerEquals pairs outside HDR-1', () => {
  it('are drawn in every kind, marked, and answered by the reference as the spec says', async () => {
    const seen = new Set<string>()
    for (let seed = 1; seed <= 1500; seed += 1) {
      const { pair, outsideHdr1 } = headerPair([], seed)
      if (!outsideHdr1) continue
      const edit = editOf(pair.left, pair.right)
      seen.add(edit)
      expect(EXPECTED[edit], edit).toBeDefined()
      expect(await referenceAdapter.operations.headerEquals!(pair, { caseId: 'pairs', step: 0 }), edit).toEqual({ ok: true, value: EXPECTED[edit] })
    }
    // Every kind of edit, each side on the left at least once where the two differ.
    expect([...seen].sort()).toEqual(Object.keys(EXPECTED).sort())
  })
})

/** Which of the five pairs below `pair` is, told from its shape, or undefined for another. */
function oddPairOf(pair: { left: Record<string, unknown>; right: Record<string, unknown> }): string | undefined {
  const both = [pair.left, pair.right]
  const json = JSON.stringify(both)
  if (json.includes('"maxTokens":null')) return 'a null flag beside a true one'
  if (json.includes('"strict":null')) return 'a tool member holding null against none'
  if (json.includes('"You are terse. "')) return 'a system prompt with a trailing space'
  if (json.includes('"required":{"0":"path"}')) return 'an array against an object keyed "0"'
  const providers = both.map(snapshot => (snapshot['config'] as Record<string, unknown>)['provider'])
  return providers[0] !== providers[1] && String(providers[0]).toLowerCase() === String(providers[1]).toLowerCase() ? 'a provider in other letter case' : undefined
}

// By hand: a flag holding null is present (HDR-5), and kept beside a true one (HDR-3); providers are
// strings compared code unit by code unit (a trailing space included); a tool member holding null
// against none, or an array against an object with a member "0", makes the tools not ordered-equal.
// Each pair is different.
describe('headerEquals pairs within reach of a careless comparison', () => {
  it('are drawn, and the reference calls each different', async () => {
    const seen = new Set<string>()
    for (let seed = 1; seed <= 600; seed += 1) {
      const { pair } = headerPair([], seed)
      const kind = oddPairOf(pair)
      if (kind === undefined) continue
      seen.add(kind)
      expect(await referenceAdapter.operations.headerEquals!(pair, { caseId: 'pairs', step: 0 }), kind).toEqual({ ok: true, value: false })
    }
    expect([...seen].sort()).toEqual([
      'a null flag beside a true one', 'a provider in other letter case', 'a system prompt with a trailing space', 'a tool member holding null against none',
      'an array against an object keyed "0"',
    ])
  })
})

// By hand: a false flag beside a true one is kept (HDR-3) and present (HDR-5), so the same false flag
// on both sides compares equal, and against none it differs.
describe('headerEquals pairs with a false flag beside a true one', () => {
  it('are drawn on both sides and on one, and the reference answers each as HDR-5 says', async () => {
    const seen = new Set<string>()
    for (let seed = 1; seed <= 600; seed += 1) {
      const { pair } = headerPair([], seed)
      const sides = [pair.left, pair.right].filter(snapshot => JSON.stringify(snapshot['adapterDefaults']) === '{"reasoningEffort":true,"maxTokens":false}')
      const others = [pair.left, pair.right].filter(snapshot => JSON.stringify(snapshot['adapterDefaults']) === '{"reasoningEffort":true}')
      if (sides.length + others.length !== 2 || sides.length === 0) continue
      const both = sides.length === 2
      seen.add(both ? 'both sides' : 'one side')
      expect(await referenceAdapter.operations.headerEquals!(pair, { caseId: 'pairs', step: 0 })).toEqual({ ok: true, value: both })
    }
    expect([...seen].sort()).toEqual(['both sides', 'one side'])
  })
})
