// `compare` (conformance/compare-command.ts) as a user drives it: --help, the command line, stdin, the
// exit statuses and the adapter's lifetime; tests/compare-command.test.ts holds what it judges. node:fs
// is mocked only to give stdin (file descriptor 0) a text, and the reference adapter only to fail on
// an input holding `explodeReference`: the two paths no real input reaches.
import { afterAll, describe, expect, it, vi } from 'vitest'
import { adapterNameProblem, ADAPTER_NAMES } from '../conformance/adapters/registry.ts'
import { COMPARE_USAGE, parseCompareOptions } from '../conformance/compare-command.ts'
import { DEFAULT_TIMEOUT_MS } from '../conformance/subprocess-adapter.ts'
import { OPERATIONS } from '../conformance/vector-cases.ts'
import { runCliHere } from './support/cli.ts'
import { inputFolder, userMessage } from './support/compare-inputs.ts'

const stdin = vi.hoisted(() => ({ text: '' }))
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>()
  const readFileSync = ((path: unknown, ...rest: unknown[]) => (path === 0 ? stdin.text : (actual.readFileSync as (...args: unknown[]) => unknown)(path, ...rest))) as typeof actual.readFileSync
  return { ...actual, readFileSync, default: { ...actual, readFileSync } }
})
vi.mock('../conformance/adapters/reference.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../conformance/adapters/reference.ts')>()
  const load = (input: Record<string, unknown>, context: unknown) => {
    if (input['explodeReference'] === true) throw new Error('the reference exploded')
    return actual.referenceAdapter.operations.load!(input, context as never)
  }
  return { ...actual, referenceAdapter: { ...actual.referenceAdapter, operations: { ...actual.referenceAdapter.operations, load } } }
})

const inputs = inputFolder('compare-command-')
afterAll(() => inputs.remove())
const inputFile = (name: string, input: unknown): string => inputs.write(name, input)
const USER = userMessage
const LOADS = { events: [USER(0, 'u0')] }
const MODULE = 'tests/fakes/compare-module.ts'
const base = ['--adapter', 'reference', '--operation', 'load']

describe('compare --help', () => {
  it('prints the usage, naming every adapter and operation, and exits 0', async () => {
    const outcome = await runCliHere(['compare', '--help'])
    expect(outcome.stdout).toBe(`${COMPARE_USAGE}\n`)
    expect(COMPARE_USAGE).toContain(`--adapter NAME          an in-process adapter: ${ADAPTER_NAMES.join(', ')}\n`)
    expect(COMPARE_USAGE).toContain(`--operation OPERATION   one of ${OPERATIONS.join(', ')}\n`)
    expect(COMPARE_USAGE).toMatch(/^usage: dsh-conformance compare /)
    expect(outcome.code).toBe(0)
  })
})

describe('parseCompareOptions', () => {
  it('takes --option=value as --option value', () => {
    expect(parseCompareOptions(['--adapter=reference', '--operation=load', 'in.json'])).toEqual({ adapter: { kind: 'name', name: 'reference' }, operation: 'load', inputs: ['in.json'], timeoutMs: DEFAULT_TIMEOUT_MS })
  })

  it('takes --timeout, and refuses one that is no positive number of milliseconds', () => {
    expect(parseCompareOptions([...base, '--timeout', '250', 'in.json'])).toMatchObject({ timeoutMs: 250 })
    expect(parseCompareOptions([...base, '--timeout=0', 'in.json'])).toEqual({ error: '--timeout needs a positive number of milliseconds, not 0' })
    expect(parseCompareOptions([...base, '--timeout', '1e3', 'in.json'])).toEqual({ error: '--timeout needs a positive number of milliseconds, not 1e3' })
  })

  it('refuses --operation or --timeout given twice: a second is a mistake, not a change of mind', () => {
    expect(parseCompareOptions([...base, '--operation', 'surface', 'in.json'])).toEqual({ error: '--operation is given twice' })
    expect(parseCompareOptions([...base, '--timeout', '250', '--timeout=500', 'in.json'])).toEqual({ error: '--timeout is given twice' })
  })

  it('refuses an unknown option, guessing the one meant', () => {
    expect(parseCompareOptions(['--adaptr', 'reference', '--operation', 'load', 'in.json'])).toEqual({ error: 'unknown option --adaptr for compare; did you mean --adapter?' })
  })

  it('refuses an option with no value or a blank one', () => {
    expect(parseCompareOptions(['--adapter', 'reference', 'in.json', '--operation'])).toEqual({ error: '--operation needs a value' })
    expect(parseCompareOptions(['--adapter', 'reference', '--operation', '  ', 'in.json'])).toEqual({ error: '--operation needs a value' })
  })

  it('refuses an unknown adapter name on the command line', () => {
    expect(adapterNameProblem('no-such')).toBeDefined()
    expect(parseCompareOptions(['--adapter', 'no-such', '--operation', 'load', 'in.json'])).toEqual({ error: adapterNameProblem('no-such') })
  })

  it('suggests nothing for an operation nothing is near', () => {
    expect(parseCompareOptions(['--adapter', 'reference', '--operation', 'zzzzzzzzzz', 'in.json'])).toEqual({ error: '--operation zzzzzzzzzz is no operation of spec/00-processing.md' })
  })

  it('takes stdin (-) once', () => {
    expect(parseCompareOptions([...base, '-'])).toMatchObject({ inputs: ['-'] })
  })
})

describe('compare, exit statuses', () => {
  it('reports a bad command line with a pointer to --help, exit 2', async () => {
    const outcome = await runCliHere(['compare', '--adapter', 'reference', 'in.json'])
    expect(outcome.stderr).toBe('compare needs --operation\ndsh-conformance compare --help lists its options\n')
    expect(outcome.code).toBe(2)
    const unknown = await runCliHere(['compare', '--adapter', 'no-such', '--operation', 'load', inputFile('loads.json', LOADS)])
    expect(unknown.code).toBe(2)
  })

  it.each(['5', 'null', '"x"', 'true'])('refuses an input that is no JSON object (%s), naming it, exit 2', async (text) => {
    const path = inputFile('scalar.json', text)
    const outcome = await runCliHere(['compare', ...base, path])
    expect(outcome.stderr).toBe(`${path}: the input must be a JSON object, the operation's whole input\n`)
    expect(outcome.stdout).toBe('')
    expect(outcome.code).toBe(2)
  })

  it('exits 2 when the reference cannot run an input, after running the others', async () => {
    const good = inputFile('good.json', LOADS)
    const bad = inputFile('explodes.json', { ...LOADS, explodeReference: true })
    const outcome = await runCliHere(['compare', ...base, good, bad])
    expect(outcome.stderr).toBe(`the reference could not run load on ${bad}: the reference exploded; is it the operation's whole input (spec/00-processing.md)?\n`)
    expect(outcome.stdout.split('\n').at(-2)).toBe('2 inputs: 1 agrees, 1 not run')
    expect(outcome.code).toBe(2)
  })

  it('exits 1 when the adapter cannot be started', async () => {
    const outcome = await runCliHere(['compare', '--adapter-module', 'tests/fakes/no-such-module.ts', '--operation', 'load', inputFile('loads.json', LOADS)])
    expect(outcome.stderr).toMatch(/^the adapter could not be started: /)
    expect(outcome.code).toBe(1)
  })

  it('refuses, as run does, an adapter that claims a profile the spec does not have, comparing nothing', async () => {
    const typo = inputs.write('typo-adapter.mjs', "export const adapter = { meta: { name: 'typo', version: '1', language: 'js', profiles: ['readr'] }, operations: { load: () => ({ ok: true, value: [] }) } }\n")
    const outcome = await runCliHere(['compare', '--adapter-module', typo, '--operation', 'load', inputFile('loads.json', LOADS)])
    expect(outcome).toEqual({ code: 1, stdout: '', stderr: 'the adapter could not be started: the adapter claims unknown profile(s) readr (profiles: reader, writer, relations, repair, compaction, fork, jsonl, storage)\n' })
  })

  it('says escaped, each line after the first indented, why an adapter did not start or failed as it was closed: neither can forge a verdict', async () => {
    const hostile = inputs.write('hostile-profile.mjs', "export const adapter = { meta: { name: 'h', version: '1', language: 'js', profiles: ['x\\u001b]0;T\\u0007\\nh: agrees with the reference'] }, operations: {} }\n")
    const refused = await runCliHere(['compare', '--adapter-module', hostile, '--operation', 'load', inputFile('loads.json', LOADS)])
    expect(refused.stderr).toBe('the adapter could not be started: the adapter claims unknown profile(s) x\\u001b]0;T\\u0007\n\th: agrees with the reference (profiles: reader, writer, relations, repair, compaction, fork, jsonl, storage)\n')
    const closing = inputs.write('hostile-close.mjs', "export const adapter = { meta: { name: 'h', version: '1', language: 'js', profiles: ['reader'] }, operations: { load: () => ({ ok: true, value: {} }) }, close: () => { throw new Error('bye\\u001b[2J\\nh: agrees with the reference') } }\n")
    const closed = await runCliHere(['compare', '--adapter-module', closing, '--operation', 'load', inputFile('loads.json', LOADS)])
    expect(closed.stderr).toBe('the adapter failed as it was closed: bye\\u001b[2J\n\th: agrees with the reference\n')
    expect(closed.code).toBe(1)
  })
})

describe('compare, input and output', () => {
  it('reads the input from stdin for -, naming it stdin', async () => {
    stdin.text = JSON.stringify(LOADS)
    const outcome = await runCliHere(['compare', ...base, '-'])
    expect(outcome.stdout.split('\n').at(-2)).toBe('reference: agrees with the reference')
    expect(outcome.code).toBe(0)
    stdin.text = '{'
    const broken = await runCliHere(['compare', ...base, '-'])
    expect(broken.stderr).toMatch(/^stdin: /)
    expect(broken.code).toBe(2)
  })

  it('prints an acceptance of the reference as the protocol carries it', async () => {
    const outcome = await runCliHere(['compare', ...base, inputFile('loads.json', LOADS)])
    expect(outcome.stdout.split('\n')[0]).toBe(`reference: {"ok":true,"value":${JSON.stringify(LOADS.events)}}`)
  })

  it('waits for the adapter as long as --timeout says', async () => {
    const slow = inputFile('slow.json', { ...LOADS, slowMs: 400 })
    const late = await runCliHere(['compare', '--adapter-module', MODULE, '--operation', 'load', '--timeout', '100', slow])
    expect(late.stdout).toMatch(/^compare-module: gave no answer: /m)
    expect(late.code).toBe(1)
    const waited = await runCliHere(['compare', '--adapter-module', MODULE, '--operation', 'load', '--timeout', '2000', slow])
    expect(waited.stdout).toContain('compare-module: agrees with the reference\n')
    expect(waited.code).toBe(0)
  })

  it('closes the adapter when it is done', async () => {
    const counter = globalThis as { compareModuleCloses?: number }
    const before = counter.compareModuleCloses ?? 0
    const outcome = await runCliHere(['compare', '--adapter-module', MODULE, '--operation', 'load', inputFile('loads.json', LOADS)])
    expect(outcome.code).toBe(0)
    expect(counter.compareModuleCloses).toBe(before + 1)
  })
})

describe('compare: an adapter that throws from close()', () => {
  // It agreed with the reference, then its close() threw: the adapter failed (compare once died there
  // of an uncaught exception).
  it('says so in a sentence and exits 1, rather than throwing', async () => {
    process.env['MODULE_MISBEHAVIOUR'] = 'close-throws'
    try {
      const outcome = await runCliHere(['compare', '--adapter-module', 'tests/fakes/module-misbehaviours.ts', '--operation', 'load', inputFile('close-throws.json', LOADS)])
      expect(outcome.stdout).toContain('agrees with the reference')
      expect(outcome.stderr).toBe('the adapter failed as it was closed: close failed in the adapter\n')
      expect(outcome.code).toBe(1)
    } finally {
      delete process.env['MODULE_MISBEHAVIOUR']
    }
  })
})
