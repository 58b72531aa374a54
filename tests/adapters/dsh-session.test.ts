// The adapters for the published @deepseek-ai/dsh-session builds: each version loads side by side
// with the others and answers through the spec's operations, and the error table is well formed.
import { describe, expect, it } from 'vitest'
import { adapterByName } from '../../conformance/adapters/registry.ts'
import { ERROR_CODE_TABLE, ruleFor, upstreamRejection } from '../../conformance/adapters/dsh-session/error-codes.ts'
import { DSH_SESSION_VERSIONS } from '../../conformance/adapters/dsh-session/upstream.ts'
import { ERROR_CODES } from '../../reference/result.ts'
import { event, user } from '../reference/helpers.ts'

const TEAM_TYPES_KNOWN: Record<string, boolean> = { '0.1.0-rc.6': false, '0.1.0-rc.7': false, '0.1.0-rc.8': true, '0.1.1-rc.2': true }

describe.each(DSH_SESSION_VERSIONS)('dsh-session@%s', (version) => {
  const adapter = adapterByName(`dsh-session@${version}`)

  it('names itself and declares the operations it maps', async () => {
    const { meta, operations } = await adapter
    expect(meta).toMatchObject({ name: `dsh-session@${version}`, version })
    expect(Object.keys(operations).sort()).toEqual([
      'append', 'decodeJsonl', 'fork', 'headerEquals', 'load', 'messages', 'relations', 'repair',
      'requestContext', 'requestHeader', 'resume', 'surface',
    ])
  })

  it('folds the surface of a tiny log', async () => {
    const { operations } = await adapter
    const events = [user(0), user(1), user(2, { surfaceOp: { op: 'replace', start: 0, end: 1 }, sourceEventSeqs: [0, 1] })]
    expect(await operations.surface!({ events })).toEqual({
      ok: true,
      value: { nodes: [2], replacements: [{ seq: 2, start: 0, end: 1, shadowedSeqs: [0, 1] }], generation: 1 },
    })
    expect(await operations.surface!({ events: events.slice(1, 2), baseSeq: 1 })).toEqual({ ok: true, value: { nodes: [1], replacements: [], generation: 0 } })
  })

  it('maps known rejections to codes and seqs', async () => {
    const { operations } = await adapter
    const append = await operations.append!({
      events: [user(0)],
      candidate: { type: 'user/message', data: user(1).data, surfaceOp: { op: 'replace', start: 7, end: 0 }, sourceEventSeqs: [0] },
      time: 5,
    })
    expect(append).toMatchObject({ ok: false, error: { code: 'SURFACE_REPLACE_START_NOT_FOUND', seq: 1 } })
    const load = await operations.load!({ events: [user(0), { ...user(1), seq: 2 }] })
    expect(load).toMatchObject({ ok: false, error: { code: 'ENV_SEQ_NOT_CONTIGUOUS', seq: 2 } })
    const nonJson = await operations.load!({ events: [event('plan/mode', 0, { active: Number.NaN })] })
    expect(nonJson).toMatchObject({ ok: false, error: { code: 'JSON_NON_FINITE', seq: 0 } })
    const relations = await operations.relations!({ events: [event('turn/start', 0, { turn: 2 })] })
    expect(relations).toEqual({ ok: true, value: { violations: [{ code: 'TURN_NUMBER_INVALID', seq: 0 }] } })
  })

  it('answers a zstd artifact, and a line that is not JSON, as inputs it cannot handle (scope-jsonl)', async () => {
    const { operations } = await adapter
    const header = '{"type":"session","version":0,"id":"s-1","createdAt":1}\n'
    expect(await operations.decodeJsonl!({ encoding: 'zstd', base64: '' })).toEqual({ ok: false, unsupported: 'dsh-session has no zstd decoder (that is the JSONL backend, on Node 22+)' })
    expect(await operations.decodeJsonl!({ text: `${header}{"seq":\n` })).toMatchObject({ ok: false, unsupported: expect.stringMatching(/^line 2 is not JSON \(SyntaxError: /) })
    expect(await operations.decodeJsonl!({ text: header })).toMatchObject({ ok: true, value: { events: [], tornTail: null } })
  })

  it('reports upstream\'s crash on an unreadable record or header (U27) as a rejection, without crashing itself', async () => {
    const { operations } = await adapter
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    // The coordinator's legacy pass throws on the record, so the log is the package's, whose crash names no index.
    const load = await operations.load!({ events: [user(0), proxy] })
    expect(load).toMatchObject({ ok: false, error: { code: 'UNMAPPED', message: expect.stringContaining('revoked') } })
    // The package's own crash on the header ('IsArray'), not the adapter's reading its id ('get').
    const header = await operations.load!({ events: [user(0)], header: proxy })
    expect(header).toMatchObject({ ok: false, error: { code: 'UNMAPPED', message: expect.stringContaining('IsArray') } })
  })

  it('judges the header a fork builds from the child id it is given', async () => {
    const { operations } = await adapter
    const events = [event('turn/start', 0, { turn: 1 }), event('turn/end', 1, { turn: 1, reason: { kind: 'completed' } })]
    const fork = await operations.fork!({ events, boundary: 1, childId: Number.NaN, sessionId: 's', now: 5 })
    expect(fork).toMatchObject({ ok: false, error: { code: 'JSON_NON_FINITE' } })
  })

  it('names the lossless-JSON fault the package\'s walk stopped at, not the one JSON-13 ranks first (U39)', async () => {
    const { operations } = await adapter
    // Members in order: a -0 first, then a cycle, which JSON-13 ranks first and the walk never reaches.
    const data: Record<string, unknown> = { a: -0 }
    data['z'] = data
    const append = await operations.append!({ events: [user(0)], candidate: { type: 'plan/mode', data }, time: 5 })
    expect(append).toMatchObject({ ok: false, error: { code: 'JSON_NEGATIVE_ZERO', seq: 1 } })
  })

  it('lets a companion\'s violation stand when the other companion crashes only at a later event', async () => {
    const { operations } = await adapter
    const relations = await operations.relations!({ events: [event('turn/start', 0, { turn: 2 }), event('compaction/start', 1, null)] })
    expect(relations).toEqual({ ok: true, value: { violations: [{ code: 'TURN_NUMBER_INVALID', seq: 0 }] } })
  })

  it('gives a rejection the seq the operation judged, not one printed in upstream\'s message', async () => {
    const { operations } = await adapter
    const nameless = { ...user(1), seq: 1.5, data: { ...(user(1).data as object), id: '' } }
    const load = await operations.load!({ events: [user(0), event('plan/mode', 1, {}), nameless] })
    expect(load).toMatchObject({ ok: false, error: { code: 'MESSAGE_ID_INVALID', seq: 2 } })
    const unfolded = await operations.surface!({ events: [user(0), { ...user(1), seq: '1' }] })
    expect(unfolded).toMatchObject({ ok: false, error: { seq: 1 } })
  })

  it('leaves a log whose header the coordinator never sees (no object, a version that is no number) to the package', async () => {
    const { operations } = await adapter
    const events = [{ ...event('acme/probe', 0, {}), type: ['user/message'] }]
    for (const header of [0, 'x', [], null, { version: '0', id: '', createdAt: 1 }, { id: '', createdAt: 1 }]) {
      expect(await operations.load!({ events, header }), JSON.stringify(header)).toMatchObject({ ok: false, error: { code: 'ENV_TYPE_INVALID', seq: 0 } })
    }
    // A header the coordinator reads gets its unknown-type refusal, as the coordinator gives it.
    expect(await operations.load!({ events, header: { version: 0, id: '', createdAt: 1 } })).toMatchObject({ ok: false, error: { code: 'FORMAT_UNKNOWN_EVENT_TYPE', seq: 0 } })
  })

  it('leaves a log the coordinator\'s legacy pass rejects to the package whole: no emulated unknown-type refusal', async () => {
    const { operations } = await adapter
    const unknown = event('acme/probe', 1, {})
    expect(await operations.load!({ events: [user(0), unknown] })).toMatchObject({ ok: false, error: { code: 'FORMAT_UNKNOWN_EVENT_TYPE', seq: 1 } })
    // The package has no refusal and accepts mode/set (U8), so the whole log loads.
    const withModeSet = await operations.load!({ events: [user(0), unknown, event('mode/set', 2, { mode: 'plan' })] })
    expect(withModeSet.ok).toBe(true)
  })

  it('gives a window\'s rejection the index of a record whose seq is unusable, not the seq upstream\'s message prints', async () => {
    const { operations } = await adapter
    const result = await operations.surface!({ events: [user(4), { ...user(5), seq: '5' }], baseSeq: 4 })
    expect(result).toMatchObject({ ok: false, error: { seq: 1 } })
  })

  it(`reads the vocabulary it ships (team/* known: ${TEAM_TYPES_KNOWN[version]})`, async () => {
    const { operations } = await adapter
    const result = await operations.load!({ events: [event('team/task', 0, { version: 1, teamId: 't', task: {} })] })
    expect(result.ok).toBe(TEAM_TYPES_KNOWN[version])
  })
})

describe('the dsh-session error table', () => {
  const codes = new Set<string>(ERROR_CODES)

  it('catches each example with its own rule, so no rule is shadowed by an earlier one', () => {
    for (const rule of ERROR_CODE_TABLE) expect(ruleFor(rule.example), rule.example).toBe(rule)
  })

  it('has no duplicate patterns and names only codes of spec/errors.md', () => {
    expect(new Set(ERROR_CODE_TABLE.map(rule => rule.pattern.source)).size).toBe(ERROR_CODE_TABLE.length)
    for (const rule of ERROR_CODE_TABLE.filter(rule => !rule.refine)) expect(codes.has(rule.code), rule.code).toBe(true)
  })

  it('turns an unknown message into UNMAPPED with the text, never a code', () => {
    expect(upstreamRejection(new TypeError('boom'))).toEqual({
      ok: false,
      error: { code: 'UNMAPPED', message: expect.stringContaining('TypeError: boom') },
    })
  })
})
