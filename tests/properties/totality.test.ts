// Totality (PROC-1): every operation of the reference answers with a result, accept or reject, and
// never throws, whatever the log holds. Each run takes one step of one vector, replaces one value
// anywhere inside the data it reads (header, events, candidate, batches, the headers compared, the
// session id and vocabulary; decodeJsonl's bytes, artifactPath's names) by a hostile
// one (a bigint, a symbol, a cycle, a revoked or throwing proxy, a throwing getter, ...) and runs the
// step's operation on it. The vectors pin what the answer is for many of these; this pins that there
// is one for all of them, messages included (a message that quoted a bigint with JSON.stringify threw).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseNameTable } from '../../conformance/spec-catalog.ts'
import { operationResultOf } from '../../conformance/adapter.ts'
import { referenceAdapter } from '../../conformance/adapters/reference.ts'
import { decodeTagged } from '../../conformance/tagged-values.ts'
import { loadVectorCases, projectRoot, type VectorStep } from '../../conformance/vector-cases.ts'
import { runs } from './support.ts'

/**
 * The members of an operation's input that hold the data it reads: the log data, and for the two
 * operations that take none, the bytes and names they read. The others (`time`, `now`, `atSeq`,
 * `boundary`, `entry`, `baseSeq`, the region's seqs) say what to do with the data, and PROC-10 leaves
 * their values outside the domain open.
 */
const LOG_DATA_KEYS = ['header', 'events', 'candidate', 'batches', 'left', 'right', 'sessionId', 'vocabulary']
const DATA_KEYS: Readonly<Record<string, readonly string[]>> = {
  decodeJsonl: ['text', 'base64', 'encoding'],
  artifactPath: ['sessionId', 'cwd', 'encoding'],
}

/** Each operation's input members: its row of spec/00-processing.md. */
const ROWS = parseNameTable(readFileSync(join(projectRoot, 'spec/00-processing.md'), 'utf8'))

/** The data members the operation takes: those of its row, and PROC-9's for one over a log. */
function dataKeysOf(operation: string): string[] {
  const taken = ROWS.get(operation) ?? new Set<string>()
  const overLog = taken.has('events')
  return (DATA_KEYS[operation] ?? LOG_DATA_KEYS).filter(key => taken.has(key) || (overLog && ['header', 'sessionId', 'vocabulary'].includes(key)))
}

const LIST_KEYS: ReadonlySet<string> = new Set(['events', 'batches'])

/** Hostile values, each made fresh for its run (a proxy may be revoked by the run that holds it). */
const HOSTILE: Record<string, () => unknown> = {
  bigint: () => 5n,
  symbol: () => Symbol('hostile'),
  function: () => () => 1,
  undefined: () => undefined,
  'negative zero': () => -0,
  NaN: () => Number.NaN,
  infinity: () => Number.POSITIVE_INFINITY,
  'lone surrogate': () => '\ud800',
  'self cycle': () => {
    const cycle: Record<string, unknown> = { type: 'user/message' }
    cycle['data'] = cycle
    return cycle
  },
  'revoked proxy': () => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    return proxy
  },
  'proxy whose traps throw': () => new Proxy({}, new Proxy({}, { get: () => () => { throw new Error('trap') } })),
  'throwing getter': () => Object.defineProperty({ type: 'user/message' }, 'data', { enumerable: true, get: () => { throw new Error('getter') } }),
  'revoked while read': () => {
    const { proxy, revoke } = Proxy.revocable<Record<string, unknown>>({ type: 'user/message', seq: 0, data: {} }, {
      get: (target, key) => {
        if (key === 'seq') revoke()
        return Reflect.get(target, key)
      },
    })
    return proxy
  },
  'throwing toString': () => ({ toString: () => { throw new Error('toString') }, [Symbol.toPrimitive]: () => { throw new Error('toPrimitive') } }),
  'null prototype': () => Object.assign(Object.create(null) as object, { type: 'user/message' }),
  'class instance': () => new Map([['type', 'user/message']]),
  'sparse array': () => [, 1], // eslint-disable-line no-sparse-arrays
  'array with a member': () => Object.assign([1], { extra: 2 }),
  'non-enumerable member': () => Object.defineProperty({}, 'type', { value: 'user/message', enumerable: false }),
  'symbol key': () => ({ [Symbol('key')]: 1 }),
}

type Path = readonly (string | number)[]

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  try {
    if (Array.isArray(value)) return Object.getPrototypeOf(value) === Array.prototype
    if (typeof value !== 'object' || value === null) return false
    const prototype: unknown = Object.getPrototypeOf(value)
    return prototype === Object.prototype || prototype === null
  } catch {
    return false
  }
}

/** The events and batches arrays, and each batch, are the operation's input shape, not log data. */
function isInputShape(path: Path): boolean {
  const [list] = path
  return LIST_KEYS.has(list as string) && (path.length === 1 || (list === 'batches' && path.length === 2))
}

/** Deeper places add nothing the rules read (the deep-nesting vectors hold 10,000 levels). */
const MAX_DEPTH = 12

/** Every place inside the step's log data where a value sits, the data members themselves included. */
function placesOf(operation: string, input: Record<string, unknown>): Path[] {
  const places: Path[] = []
  const pending: { value: unknown; path: Path }[] = dataKeysOf(operation).filter(key => key in input).map(key => ({ value: input[key], path: [key] }))
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (!isInputShape(next.path)) places.push(next.path)
    if (next.path.length > MAX_DEPTH || !isContainer(next.value)) continue
    for (const key of Object.keys(next.value)) {
      const member = (next.value as Record<string, unknown>)[key]
      // An array's named member (the array-property tag) is a key, not an index.
      pending.push({ value: member, path: [...next.path, Array.isArray(next.value) && /^\d+$/.test(key) ? Number(key) : key] })
    }
  }
  return places
}

/** `input` with the value at `path` replaced; the containers on the way are copied, not changed. */
function replacedAt(container: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value
  const [head, ...rest] = path as [string | number, ...Path]
  // An array keeps its holes, its length and its named members, as spreading it would not.
  const copy = Array.isArray(container) ? Object.assign(new Array(container.length), container) : { ...(container as Record<string, unknown>) }
  ;(copy as Record<string | number, unknown>)[head] = replacedAt((container as Record<string | number, unknown>)[head], rest, value)
  return copy
}

/**
 * headerEquals and encodeJsonl take JSON data that no rule checks (spec/00-processing.md: operations
 * take plain JSON data; only the reading path checks it, JSON-1), so a value outside lossless JSON is
 * outside these two operations.
 */
const UNCHECKED_INPUT: ReadonlySet<string> = new Set(['headerEquals', 'encodeJsonl'])

const steps: VectorStep[] = loadVectorCases().flatMap(vector => vector.steps).filter(step => !UNCHECKED_INPUT.has(step.operation))

describe('the reference is total (PROC-1)', () => {
  it('every operation answers a result, never an exception, with a hostile value anywhere in the data it reads', async () => {
    const hostileNames = Object.keys(HOSTILE)
    const hits = new Map<string, number>()
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: steps.length - 1 }), fc.nat(), fc.constantFrom(...hostileNames),
        async (stepIndex, placeChoice, hostileName) => {
          const step = steps[stepIndex]!
          const input = decodeTagged(step.input) as Record<string, unknown>
          const places = placesOf(step.operation, input)
          fc.pre(places.length > 0)
          const place = places[placeChoice % places.length]!
          hits.set(step.operation, (hits.get(step.operation) ?? 0) + 1)
          const operation = referenceAdapter.operations[step.operation]!
          const hostileInput = replacedAt(input, place, HOSTILE[hostileName]!()) as Record<string, unknown>
          let result: unknown
          try {
            result = await operation(hostileInput, { caseId: 'totality', step: 0 })
          } catch (error) {
            throw new Error(`${step.operation} threw with a ${hostileName} at ${place.join('.')}: ${String(error)}`)
          }
          expect(operationResultOf(result), `${step.operation} with a ${hostileName} at ${place.join('.')}`).toBeDefined()
        },
      ),
      runs(4000),
    )
    // Every operation of the steps met hostile values, in the members it reads.
    const operations = [...new Set(steps.map(step => step.operation))].sort()
    expect(operations.filter(operation => (hits.get(operation) ?? 0) === 0), `hits: ${JSON.stringify(Object.fromEntries(hits))}`).toEqual([])
    expect(operations.length).toBe(15)
  })
})
