// Filters by chapter, requirement, profile, operation and case-id glob; the options of each command; and
// `dsh-conformance list` honouring the filters.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseOptions, type CommandOptions } from '../conformance/cli-options.ts'
import { addFilterValues, compileGlob, describeFilters, listLines, noFilters, selectCases, unmatchedFilterValues, type CaseFilters } from '../conformance/filters.ts'
import { loadVectorCases, vectorsDir } from '../conformance/vector-cases.ts'
import { CASES } from './support/fake-runs.ts'

function ids(filters: Partial<CaseFilters>): string[] {
  return selectCases(CASES, filters).map((vector) => vector.id)
}

describe('selecting cases', () => {
  it('takes every case without filters', () => {
    expect(ids({})).toEqual(CASES.map((vector) => vector.id))
    expect(ids(noFilters())).toEqual(CASES.map((vector) => vector.id))
  })

  it('reads a filter left out, or undefined, as none (the package entry takes some of the filters)', () => {
    expect(ids({ profiles: ['jsonl'] })).toEqual(['jsonl-a'])
    expect(ids({ profiles: ['jsonl'], chapters: undefined })).toEqual(['jsonl-a'])
  })

  it('checks and normalizes the filters a caller of the package gives, as the vitest entry does', () => {
    expect(ids({ requirements: ['surf-5'] })).toEqual(['surf-b', 'surf-c'])
    expect(() => selectCases(CASES, { profile: ['jsonl'] } as Partial<CaseFilters>)).toThrow('selectCases: unknown filter profile; the filters are chapters, requirements, profiles, operations, cases')
    expect(() => selectCases(CASES, { profiles: ['writers'] })).toThrow(/^selectCases: unknown profile writers/)
  })

  it('by chapter: its name or its number', () => {
    expect(ids({ chapters: ['05-surface'] })).toEqual(['surf-a', 'surf-b', 'surf-c'])
    expect(ids({ chapters: ['05'] })).toEqual(['surf-a', 'surf-b', 'surf-c'])
    expect(ids({ chapters: ['5', '19'] })).toEqual(['surf-a', 'surf-b', 'surf-c', 'jsonl-a'])
    expect(ids({ chapters: ['surface'] })).toEqual([])
  })

  it('by requirement: an exact ID or a whole prefix, never a longer number', () => {
    expect(ids({ requirements: ['SURF-5'] })).toEqual(['surf-b', 'surf-c'])
    expect(ids({ requirements: ['SURF'] })).toEqual(['surf-a', 'surf-b', 'surf-c'])
    expect(ids({ requirements: ['PROC-7', 'JSONL'] })).toEqual(['comp-b', 'jsonl-a'])
    expect(ids({ requirements: ['SURF-50'] })).toEqual([])
  })

  it('by profile, and by case-id glob', () => {
    expect(ids({ profiles: ['relations', 'jsonl'] })).toEqual(['comp-b', 'jsonl-a'])
    expect(ids({ cases: ['surf-*'] })).toEqual(['surf-a', 'surf-b', 'surf-c'])
    expect(ids({ cases: ['comp-?', '*-c'] })).toEqual(['surf-c', 'comp-a', 'comp-b'])
  })

  it('by operation: the cases with a step of one of them', () => {
    expect(ids({ operations: ['load'] })).toEqual(['surf-c'])
    expect(ids({ operations: ['relations', 'surface'] })).toEqual(['surf-c', 'comp-b'])
    expect(ids({ operations: ['fork'] })).toEqual([])
  })

  it('needs every filter to match', () => {
    expect(ids({ chapters: ['05'], requirements: ['SURF-1'], cases: ['*-b'] })).toEqual(['surf-b'])
    expect(ids({ chapters: ['13'], profiles: ['reader'] })).toEqual([])
  })

  it('reads globs literally except * and ?', () => {
    expect(compileGlob('a.b*').test('a.bc')).toBe(true)
    expect(compileGlob('a.b*').test('axbc')).toBe(false)
    expect(compileGlob('(x)+?').test('(x)+!')).toBe(true)
  })

  it.each([
    ['*', '', true], ['*', 'anything', true], ['', '', true], ['', 'a', false],
    ['a*', 'a', true], ['*a', 'ba', true], ['*a', 'ab', false], ['a*b*c', 'aXbYc', true], ['a*b*c', 'aXbYcZ', false],
    ['*-b', 'surf-b-b', true], ['a*ab', 'aaab', true], ['a*ab', 'aaba', false], ['**x', 'yx', true], ['x**', 'x', true],
    ['?', '', false], ['?', 'ab', false], ['a?c', 'abc', true], ['?', '😀', true], ['a*', 'a\nb', true], ['*\\*', 'a\\b', true],
    ['a[b]', 'a[b]', true], ['a[b]', 'ab', false], ['*.zst', 'x/y.jsonl.zst', true], ['*.zst', 'x.zstd', false],
  ])('matches the glob %j against %j: %s', (glob, text, matches) => {
    expect(compileGlob(glob).test(text)).toBe(matches)
  })

  it('takes no more than quadratic time on a glob of many *s that misses a long name', () => {
    const started = performance.now()
    expect(compileGlob(`${'*a'.repeat(30)}*b`).test('a'.repeat(2000))).toBe(false)
    // A regular expression of .* runs backtracks exponentially here; this takes milliseconds.
    expect(performance.now() - started).toBeLessThan(2000)
  })

  it('refuses unknown profiles, malformed requirement IDs and empty values', () => {
    expect(addFilterValues(noFilters(), 'profiles', 'reader,writers')).toMatch(/unknown profile writers/)
    expect(addFilterValues(noFilters(), 'operations', 'load,decodejsonl')).toMatch(/^unknown operation decodejsonl \(operations: load, append, .*decodeJsonl/)
    expect(addFilterValues(noFilters(), 'requirements', 'SURF-5,5-SURF')).toMatch(/not a requirement ID or prefix: 5-SURF/)
    expect(addFilterValues(noFilters(), 'requirements', 'SURF-12,SURF-1x,SURF-')).toMatch(/not a requirement ID or prefix: SURF-1x, SURF-$/)
    expect(addFilterValues(noFilters(), 'cases', ' , ')).toMatch(/empty/)
    const filters = noFilters()
    expect(addFilterValues(filters, 'requirements', 'surf-5, comp')).toBeUndefined()
    expect(filters.requirements).toEqual(['SURF-5', 'COMP'])
  })

  it('names a chapter, requirement or case-id value that matches no case on its own, the first of each kind', () => {
    const given = (filters: Partial<CaseFilters>): CaseFilters => ({ ...noFilters(), ...filters })
    expect(unmatchedFilterValues(CASES, given({ chapters: ['05', 'surface'] }))).toMatch(/^--chapter surface matches no case \(chapters: .*05-surface.*, or their numbers\)$/)
    expect(unmatchedFilterValues(CASES, given({ requirements: ['SURF-1', 'SURF-55'] }))).toMatch(/^--requirement SURF-55 matches no case/)
    expect(unmatchedFilterValues(CASES, given({ cases: ['*-b', 'nothing-*'] }))).toBe('--case nothing-* matches no case id')
    // Each value matches some case, though not together: that is for the run to say.
    expect(unmatchedFilterValues(CASES, given({ chapters: ['5'], requirements: ['SURF'], cases: ['*-b'] }))).toBeUndefined()
    expect(unmatchedFilterValues(CASES, given({ chapters: ['13'], profiles: ['reader'] }))).toBeUndefined()
  })
})

describe('command options', () => {
  const parsed = (command: 'run' | 'list' | 'matrix', args: string[]): CommandOptions => {
    const options = parseOptions(command, args)
    if ('error' in options) throw new Error(options.error)
    return options
  }

  it('reads repeated and comma-separated filters, and --option=value', () => {
    const options = parsed('run', ['--chapter', '05,13', '--chapter=19', '--case', 'surf-*', '--requirement=SURF'])
    expect(options.filters).toEqual({ chapters: ['05', '13', '19'], requirements: ['SURF'], profiles: [], operations: [], cases: ['surf-*'] })
    expect(describeFilters(options.filters)).toBe('--chapter 05,13,19 --requirement SURF --case surf-*')
    expect(options.adapters).toEqual([{ kind: 'name', name: 'reference' }])
  })

  it('keeps every adapter option, of each kind, in the order given', () => {
    expect(parsed('matrix', ['--adapter-module', 'm.ts', '--adapter', 'reference', '--adapter-cmd', 'python3 a.py', '--adapter=dsh-session@0.1.0-rc.8']).adapters).toEqual([
      { kind: 'module', path: 'm.ts' },
      { kind: 'name', name: 'reference' },
      { kind: 'command', command: 'python3 a.py' },
      { kind: 'name', name: 'dsh-session@0.1.0-rc.8' },
    ])
  })

  it('reads an argument that is not an option whole, equals sign included', () => {
    expect(parseOptions('run', ['surf=x'])).toEqual({ error: 'unexpected argument surf=x for run: its options start with --, and a value that holds spaces needs quotes' })
    expect(parseOptions('matrix', ['--adapter', 'nosuch'])).toEqual({ error: expect.stringMatching(/^unknown adapter "nosuch" \(known: reference, dsh-session@/) })
  })

  it('reads the baseline and report options of run', () => {
    const options = parsed('run', ['--adapter', 'reference', '--baseline', 'a.yaml', '--strict-baseline', '--report', 'json=r.json,md=r.md', '--write-baseline', 'out.yaml'])
    expect(options).toMatchObject({ baselines: ['a.yaml'], strictBaseline: true, writeBaseline: 'out.yaml', reports: { json: 'r.json', md: 'r.md' } })
  })

  it('refuses an option that takes one value given twice, and takes the others as often as given', () => {
    for (const [command, option] of [['run', '--timeout'], ['run', '--write-baseline'], ['matrix', '--md'], ['matrix', '--html'], ['matrix', '--timeout']] as const) {
      expect(parseOptions(command, [option, '10', `${option}=20`])).toEqual({ error: `${option} is given twice` })
    }
    expect(parsed('run', ['--adapter', 'reference', '--adapter', 'dsh-session@0.1.0-rc.8', '--baseline', 'a.yaml', '--baseline', 'b.yaml', '--chapter', '05', '--chapter', '13'])).toMatchObject({
      baselines: ['a.yaml', 'b.yaml'], filters: { chapters: ['05', '13'] },
    })
  })

  it('refuses what a command does not take, and bad values', () => {
    expect(parseOptions('list', ['--adapter', 'reference'])).toEqual({ error: 'unknown option --adapter for list' })
    expect(parseOptions('matrix', ['--baseline', 'x.yaml'])).toEqual({ error: 'unknown option --baseline for matrix' })
    expect(parseOptions('run', ['--md', 'x.md'])).toEqual({ error: 'unknown option --md for run' })
    expect(parseOptions('run', ['--strict-baseline=yes'])).toEqual({ error: '--strict-baseline takes no value' })
    expect(parseOptions('run', ['--case'])).toEqual({ error: '--case needs a value' })
    // A likely misspelling gets a guess; an option of another command does not (list takes no --adapter).
    expect(parseOptions('run', ['--basline', 'b.yaml'])).toEqual({ error: 'unknown option --basline for run; did you mean --baseline?' })
    expect(parseOptions('list', ['--profiles', 'reader'])).toEqual({ error: 'unknown option --profiles for list; did you mean --profile?' })
    expect(parseOptions('run', ['--verbose'])).toEqual({ error: 'unknown option --verbose for run' })
    expect(parseOptions('run', ['chapter', '05'])).toEqual({ error: 'unknown option chapter for run; did you mean --chapter?' })
    expect(parseOptions('run', ['--chatper', '05'])).toEqual({ error: 'unknown option --chatper for run; did you mean --chapter?' })
    expect(parseOptions('run', ['--strict-baseline'])).toEqual({ error: '--strict-baseline judges a run against a --baseline, and none is given' })
    // The second word of an unquoted command.
    expect(parseOptions('run', ['--adapter-cmd', 'python3', 'adapter.py'])).toEqual({ error: 'unexpected argument adapter.py for run: its options start with --, and a value that holds spaces needs quotes' })
    expect(parseOptions('run', ['--adapter-cmd', ''])).toEqual({ error: '--adapter-cmd needs a value' })
    expect(parseOptions('run', ['--adapter-module=  '])).toEqual({ error: '--adapter-module needs a value' })
    expect(parseOptions('run', ['--adapter-cmd', '--chapter', '05'])).toEqual({ error: '--adapter-cmd needs a value, not the option --chapter (write --adapter-cmd=--chapter if that is the value)' })
    expect(parsed('run', ['--adapter-cmd=--chapter']).adapters).toEqual([{ kind: 'command', command: '--chapter' }])
    expect(parseOptions('run', ['--timeout', '0'])).toMatchObject({ error: expect.stringContaining('positive number') })
    expect(parseOptions('run', ['--adapter', 'reference', '--adapter', 'dsh-session@0.1.0-rc.8', '--write-baseline', 'x.yaml'])).toMatchObject({ error: expect.stringContaining('{adapter}') })
    expect(parsed('run', ['--adapter', 'reference', '--adapter', 'dsh-session@0.1.0-rc.8', '--write-baseline', 'b/{adapter}.yaml']).writeBaseline).toBe('b/{adapter}.yaml')
    expect(parsed('matrix', ['--adapter', 'reference', '--md', 'm.md', '--html', 'm.html'])).toMatchObject({ matrixMarkdown: 'm.md', matrixHtml: 'm.html' })
  })
})

describe('dsh-conformance list', () => {
  it('lists only the cases the filters select, one tab-separated line each', () => {
    const options = parseOptions('list', ['--chapter', '19', '--profile', 'jsonl', '--case', 'jsonl-torn-*'])
    if ('error' in options) throw new Error(options.error)
    const chapter = loadVectorCases(join(vectorsDir, '19-jsonl'))
    const rows = listLines(chapter, options.filters).map((line) => line.split('\t'))
    expect(rows.length).toBeGreaterThan(3)
    expect(rows.length).toBeLessThan(chapter.length)
    for (const [id, profile, requirements, operations, title] of rows) {
      expect(id).toMatch(/^jsonl-torn-/)
      expect(profile).toBe('jsonl')
      expect(requirements).toMatch(/JSONL-\d+/)
      expect(operations).toBe('decodeJsonl')
      expect(title).not.toBe('')
    }
  })

  it('selects by operation and names each operation of a case once, in the order its steps run them', () => {
    const options = parseOptions('list', ['--operation', 'encodeJsonl'])
    if ('error' in options) throw new Error(options.error)
    const rows = listLines(loadVectorCases(), options.filters).map((line) => line.split('\t'))
    expect(rows.length).toBeGreaterThan(0)
    for (const [, , , operations] of rows) expect(operations!.split(',')).toContain('encodeJsonl')
    const [twoSteps] = listLines(CASES, { ...noFilters(), cases: ['surf-c'] })
    expect(twoSteps).toBe('surf-c\treader\tSURF-5\tsurface,load\tthe case surf-c')
  })
})
