// Reading vector files (conformance/vector-cases.ts): a case expands into the step inputs that
// vectors/README.md ("A case") describes, and a malformed file is an error naming the file, the line
// and what is wrong, before any case runs.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadVectorFile, loadVectorFolder, projectRoot, VectorFileError, type VectorCase } from '../conformance/vector-cases.ts'
import { readSpecTerms, termFault } from '../conformance/vector-spec-terms.ts'
import { PROFILES } from '../conformance/spec-catalog.ts'

const dir = mkdtempSync(join(tmpdir(), 'vector-cases-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Loads a vector file of one chapter whose `cases:` block is `casesYaml` (indented two spaces). */
function load(casesYaml: string): VectorCase[] {
  const path = join(dir, 'cases.yaml')
  writeFileSync(path, `chapter: 05-surface\ntitle: test file\ncases:\n${casesYaml}`)
  return loadVectorFile(path, 'vectors/05-surface/cases.yaml')
}

/** A case whose log and steps are given as YAML lines (each indented four spaces, as under the case). */
function caseYaml(members: string): string {
  return `  - id: c1\n    title: a case\n    requirements: [SURF-3]\n    profile: writer\n${members}`
}

/** Case members: a header, a sessionId, a vocabulary and a log of one user message. */
const WITH_IDENTITY = `    header: {id: s1, version: 0}
    sessionId: s1
    vocabulary: v0-rc8
    log:
      - {user: one}
`

const user = (seq: number, text: string): Record<string, unknown> => ({
  type: 'user/message', seq, time: 1000 + seq, surfaceOp: 'append',
  data: { id: `u${seq}`, role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } },
})

describe('a case expands', () => {
  it('into steps that get the case log, header, sessionId and vocabulary, their own members laid over them', () => {
    const [vector] = load(caseYaml(`${WITH_IDENTITY}    steps:
      - surface: {baseSeq: 0, vocabulary: v0-pinned}
        expect: {accept: true}
`))
    expect(vector).toStrictEqual({
      id: 'c1', title: 'a case', file: 'vectors/05-surface/cases.yaml', chapter: '05-surface', requirements: ['SURF-3'], profile: 'writer', review: false,
      steps: [expect.anything()],
    })
    expect(vector!.steps).toStrictEqual([{
      operation: 'surface',
      input: { header: { id: 's1', version: 0 }, sessionId: 's1', vocabulary: 'v0-pinned', events: [user(0, 'one')], baseSeq: 0 },
      expect: { accept: true },
    }])
  })

  it('an append step: candidate members only, the next seq and clock, header and sessionId but no vocabulary', () => {
    const [vector] = load(caseYaml(`${WITH_IDENTITY}    steps:
      - append: {user: two}
        expect: {accept: true}
`))
    expect(vector!.steps[0]).toStrictEqual({
      operation: 'append',
      input: {
        header: { id: 's1', version: 0 }, sessionId: 's1', events: [user(0, 'one')], time: 1001,
        candidate: { type: 'user/message', surfaceOp: 'append', data: user(1, 'two')['data'] },
      },
      expect: { value: user(1, 'two') },
    })
  })

  it('an append step refuses a seq or ignorable modifier, which its candidate would drop unread', () => {
    const items = ['{user: two, seq: 5}', '{user: two, ignorable: true}', '{event: {type: todo/write, data: {todos: []}, seq: 7}}', '{event: {type: todo/write, data: {todos: []}, ignorable: true}}']
    for (const item of items) {
      const member = item.includes('seq') ? 'seq' : 'ignorable'
      expect(() => load(caseYaml(`${WITH_IDENTITY}    steps:\n      - append: ${item}\n        expect: {accept: true}\n`)), item)
        .toThrow(new VectorFileError(`vectors/05-surface/cases.yaml:14: case c1: step 0: an append's candidate has no ${member}: the writer gives the event its seq (the log's length) and no ignorable member, so write what it gets in the step's expected value`))
    }
  })

  it('an accepted append expects exactly its event and joins the log of later steps; a rejected one does not', () => {
    const [vector] = load(caseYaml(`    log:
      - {user: one}
    steps:
      - append: {user: two, time: 5}
        expect: {accept: true}
      - append: {user: bad, surfaceOp: sideways}
        expect: {reject: {code: SURFACE_OP_INVALID, seq: 2}}
      - append: {user: three}
        expect: {accept: true}
      - messages: {}
        expect: {accept: true}
`))
    const [first, rejected, third, messages] = vector!.steps
    const two = { ...user(1, 'two'), time: 5 }
    expect(first!.input['time']).toBe(5)
    expect(first!.expect).toEqual({ value: two })
    expect(rejected!.input['events']).toEqual([user(0, 'one'), two])
    expect(third!.input['events']).toEqual([user(0, 'one'), two])
    expect(third!.expect).toEqual({ value: user(2, 'three') })
    expect(messages!.input['events']).toEqual([user(0, 'one'), two, user(2, 'three')])
  })

  it('a record: candidate is passed as written; its time input is its own time, else the clock at the log end', () => {
    const [vector] = load(caseYaml(`    log:
      - {user: one}
    steps:
      - append: {record: {type: plan/mode, seq: 9, time: 7, data: {active: true}}}
        expect: {reject: {code: ENV_UNKNOWN_KEY, seq: 1}}
      - append: {record: [not, an, object]}
        expect: {reject: {code: ENV_NOT_OBJECT, seq: 1}}
      - append: {record: {type: plan/mode, data: {active: true}}}
        expect: {accept: true}
`))
    expect(vector!.steps.map((step) => [step.input['candidate'], step.input['time']])).toStrictEqual([
      [{ type: 'plan/mode', seq: 9, time: 7, data: { active: true } }, 7],
      [['not', 'an', 'object'], 1001],
      [{ type: 'plan/mode', data: { active: true } }, 1001],
    ])
  })

  it('keeps a review flag, and gives a step no member the case lacks', () => {
    const [vector] = load(caseYaml(`    review: true
    log: []
    steps:
      - append: {user: one}
        expect: {accept: true}
      - load: {}
        expect: {accept: true}
`))
    expect(vector!.review).toBe(true)
    expect(Object.keys(vector!.steps[0]!.input).sort()).toEqual(['candidate', 'events', 'time'])
    expect(Object.keys(vector!.steps[1]!.input)).toEqual(['events'])
  })
})

describe('a malformed vector file', () => {
  const INVALID = 'vectors/05-surface/cases.yaml: not a valid vector file: '

  /** The message a file whose log is `log` (items indented six spaces) is refused with. */
  const refusal = (log: string): string => {
    try {
      load(caseYaml(`    log:\n${log}    steps:\n      - surface: {}\n        expect: {accept: true}\n`))
    } catch (error) {
      return (error as Error).message
    }
    return 'accepted'
  }

  it('is refused naming the line and key of a modifier its head does not take', () => {
    expect(refusal('      - {user: one}\n      - {user: two, tokens: 5}\n')).toBe(`${INVALID}line 10, cases[0].log[1]: key "tokens" is not allowed here`)
    expect(refusal('      - {record: {}, seq: 1}\n')).toBe(`${INVALID}line 9, cases[0].log[0]: key "seq" is not allowed here`)
    expect(refusal('      - {greeting: one}\n')).toBe(`${INVALID}line 9, cases[0].log[0]: key "greeting" is not allowed here`)
  })

  it('names the line a key at fault is written on, in a mapping written over several lines', () => {
    expect(refusal('      - user: one\n        id: u\n        tokens: 5\n')).toBe(`${INVALID}line 11, cases[0].log[0]: key "tokens" is not allowed here`)
  })

  it('is refused naming a step member its operation does not take, a misspelt one included', () => {
    expect(() => load(caseYaml('    log: []\n    steps:\n      - surface: {baseseq: 0}\n        expect: {accept: true}\n'))).toThrow(
      new Error(`${INVALID}line 10, cases[0].steps[0].surface: key "baseseq" is not allowed here`),
    )
    expect(() => load(caseYaml('    log: []\n    steps:\n      - headerEquals: {left: {}, right: {}, events: []}\n        expect: {accept: true}\n'))).toThrow(
      new Error(`${INVALID}line 10, cases[0].steps[0].headerEquals: key "events" is not allowed here`),
    )
  })

  it('is refused naming the line of an item with no head, an empty prune, a list of the wrong length', () => {
    expect(refusal('      - {text: one}\n')).toBe(`${INVALID}line 9, cases[0].log[0]: must not be an item of modifiers only, with no head`)
    expect(refusal('      - {user: one}\n      - {compaction/prune: []}\n')).toBe(`${INVALID}line 10, cases[0].log[1]["compaction/prune"]: must not be an empty list`)
    expect(refusal('      - {step/start: [1]}\n')).toBe(`${INVALID}line 9, cases[0].log[0]["step/start"]: must NOT have fewer than 2 items`)
    expect(refusal('      - {compaction/summary: [k, []]}\n')).toBe(`${INVALID}line 9, cases[0].log[0]["compaction/summary"][1]: must NOT have fewer than 1 items`)
  })

  it('lists every fault, each at its own line, a scalar included', () => {
    expect(refusal('      - {user: one, calls: []}\n      - {turn/end: [1, completed, x, y]}\n')).toBe(
      `${INVALID}line 9, cases[0].log[0]: key "calls" is not allowed here; line 10, cases[0].log[1]["turn/end"]: must NOT have more than 3 items`,
    )
    expect(() => load(caseYaml('    log: []\n    steps:\n      - surface: {}\n        expect: {accept: true}\n').replace('profile: writer', 'profile: bogus'))).toThrow(
      new Error(`${INVALID}line 7, cases[0].profile: must be one of reader, writer, relations, repair, compaction, fork, jsonl, storage`),
    )
  })

  it('says an expectation holds one of accept, value and reject, once, and keeps a fault inside the one it holds', () => {
    const expecting = (expect: string): string => {
      try {
        load(caseYaml(`    log: []\n    steps:\n      - load: {}\n        expect: ${expect}\n`))
      } catch (error) {
        return (error as Error).message
      }
      return 'accepted'
    }
    expect(expecting('{reject: {code: SURFACE_OP_INVALID, seq: 0}, value: 1}')).toBe(`${INVALID}line 11, cases[0].steps[0].expect: must be a mapping of exactly one of accept: true, value or reject`)
    expect(expecting('{}')).toBe(`${INVALID}line 11, cases[0].steps[0].expect: must be a mapping of exactly one of accept: true, value or reject`)
    expect(expecting('{reject: {code: SURFACE_OP_INVALID, sq: 0}}')).toBe(`${INVALID}line 11, cases[0].steps[0].expect.reject: key "sq" is not allowed here`)
    // A key no kind of expectation takes is named; a seq keeps the schema's own words.
    expect(expecting('{value: [], comment: why}')).toBe(`${INVALID}line 11, cases[0].steps[0].expect: key "comment" is not allowed here`)
    expect(expecting('{reject: {code: SURFACE_OP_INVALID, seq: -1}}')).toBe(`${INVALID}line 11, cases[0].steps[0].expect.reject.seq: must be >= 0; line 11, cases[0].steps[0].expect.reject.seq: must be null; line 11, cases[0].steps[0].expect.reject.seq: must match exactly one schema in oneOf`)
  })

  it('says where a fault is as the file\'s author writes it, the whole file included', () => {
    const path = join(dir, 'top.yaml')
    writeFileSync(path, 'chapter: 05-surface\ntitle: test file\ncases: []\nextra: 1\n')
    expect(() => loadVectorFile(path, 'vectors/05-surface/top.yaml')).toThrow(/^vectors\/05-surface\/top\.yaml: not a valid vector file: line 4, the file: key "extra" is not allowed here/)
  })

  it.each([
    ['names the case, the log item and its line', `    log:
      - {user: one}
      - {user: {$dsh: no-such-tag}}
    steps:
      - surface: {}
        expect: {accept: true}
`, /^vectors\/05-surface\/cases\.yaml:10: case c1: log item 1: .*no-such-tag/],
    ['in a step names the step and its line', `    log: []
    steps:
      - surface: {}
        expect: {accept: true}
      - surface: {baseSeq: {$dsh: no-such-tag}}
        expect: {accept: true}
`, /^vectors\/05-surface\/cases\.yaml:12: case c1: step 1: .*no-such-tag/],
    ['in its header names the header and its line', `    header: {id: s1, version: {$dsh: no-such-tag}}
    log: []
    steps:
      - load: {}
        expect: {accept: true}
`, /^vectors\/05-surface\/cases\.yaml:8: case c1: header: .*no-such-tag/],
    ['in an expected value names the step', `    log: []
    steps:
      - surface: {}
        expect: {value: {nodes: {$dsh: no-such-tag}}}
`, /^vectors\/05-surface\/cases\.yaml:10: case c1: step 0: .*no-such-tag/],
  ])('with a malformed tagged value %s', (_where, yaml, refusal) => {
    expect(() => load(caseYaml(yaml))).toThrow(refusal)
  })

  it('that is not YAML is refused as such, in one line naming the line', () => {
    expect(() => load('  - id: [unclosed\n')).toThrow(/^vectors\/05-surface\/cases\.yaml:5: not YAML: [^\n]+$/)
    expect(() => load('  - id: [unclosed\n')).toThrow(VectorFileError)
  })

  it('holding an alias bomb is refused as not YAML, not thrown as the parser\'s error', () => {
    const anchors = Array.from({ length: 9 }, (_, level) => `x${level + 1}: &a${level + 1} [${Array(10).fill(`*a${level}`).join(', ')}]`)
    const bomb = `x0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n${anchors.join('\n')}\n`
    expect(refusalOf(() => load(`${caseYaml('    log: []\n    steps:\n      - surface: {}\n        expect: {accept: true}\n')}${bomb}`)))
      .toEqual(new VectorFileError('vectors/05-surface/cases.yaml: not YAML: Excessive alias count indicates a resource exhaustion attack'))
  })

  it('that cannot be read is refused naming it', () => {
    expect(refusalOf(() => loadVectorFile(join(dir, 'absent.yaml'), 'vectors/05-surface/absent.yaml')))
      .toEqual(new VectorFileError(`cannot read the vector file ${join(dir, 'absent.yaml')}: no such file or folder`))
  })
})

describe('a vector file holding what a JSON value cannot be', () => {
  const FILE = 'vectors/05-surface/cases.yaml'
  const withLog = (item: string): string => caseYaml(`    log:\n      - ${item}\n    steps:\n      - surface: {}\n        expect: {accept: true}\n`)

  it.each([
    // A Set and a Date, which a subprocess adapter would get as {}; a Buffer; an integer rounded; a string tag.
    ['{user: !!set {a, b}}', '!!set'],
    ['{user: !!timestamp 2001-12-14t21:59:43.10-05:00}', '!!timestamp'],
    ['!!binary aGVsbG8=', '!!binary'],
    ['{user: !!int 99999999999999999999999999}', '!!int'],
    ['{user: !!str 1}', '!!str'],
  ])('is refused at the line of a YAML tag: %s', (item, tag) => {
    expect(refusalOf(() => load(withLog(item)))).toEqual(new VectorFileError(
      `${FILE}:9: the YAML tag ${tag} is not taken: the file holds JSON values only (a vector file writes others as tagged values, {$dsh: …})`))
  })

  it('is refused at the line of what the parser warns of, a tag it does not know or a directive, which it would pass over', () => {
    expect(refusalOf(() => load(withLog('{user: !unknown x}')))).toEqual(new VectorFileError(`${FILE}:9: not YAML: Unresolved tag: !unknown`))
    const path = join(dir, 'directive.yaml')
    writeFileSync(path, `%FOO bar\n---\nchapter: 05-surface\ntitle: test file\ncases:\n${withLog('{user: one}')}`)
    expect(refusalOf(() => loadVectorFile(path, FILE))).toEqual(new VectorFileError(`${FILE}:1: not YAML: Unknown directive %FOO`))
  })

  it('is read by YAML 1.2\'s core schema even under a %YAML 1.1 directive, which would make a date of a text', () => {
    const path = join(dir, 'yaml-1.1.yaml')
    writeFileSync(path, `%YAML 1.1\n---\nchapter: 05-surface\ntitle: test file\ncases:\n${withLog('{user: 2001-12-14}')}`)
    const [vector] = loadVectorFile(path, FILE)
    expect(vector!.steps[0]!.input['events']).toStrictEqual([user(0, '2001-12-14')])
  })

  it('is refused at the line of bytes that are not UTF-8, which would be read as U+FFFD', () => {
    const path = join(dir, 'not-utf8.yaml')
    writeFileSync(path, Buffer.concat([Buffer.from(`chapter: 05-surface\ntitle: test file\ncases:\n${withLog('{user: one}')}    notes: "`), Buffer.from([0xff, 0xfe]), Buffer.from('"\n')]))
    expect(refusalOf(() => loadVectorFile(path, FILE))).toEqual(new VectorFileError(`${path}:13: not UTF-8: the line holds bytes that encode no character`))
  })
})

describe('a folder of vector files', () => {
  it('is walked once however many links lead back to it, and into a folder named like a vector file', () => {
    // Followed until the system's ELOOP, two links back to the folder made 2^40 paths.
    const folder = join(dir, 'linked-back')
    mkdirSync(join(folder, 'd.yaml'), { recursive: true })
    writeFileSync(join(folder, 'd.yaml', 'a.yaml'), `chapter: 05-surface\ntitle: test file\ncases:\n${caseYaml('    log: []\n    steps:\n      - surface: {}\n        expect: {accept: true}\n')}`)
    symlinkSync('.', join(folder, 'again'))
    symlinkSync('.', join(folder, 'and-again'))
    expect(loadVectorFolder(folder).map((vector) => vector.file)).toEqual(['linked-back/d.yaml/a.yaml'])
  })

  it('refuses a file whose chapter is none of the spec\'s, naming its line', () => {
    const folder = join(dir, 'chapters')
    mkdirSync(folder, { recursive: true })
    const body = `title: test file\ncases:\n${caseYaml('    log: []\n    steps:\n      - surface: {}\n        expect: {accept: true}\n')}`
    writeFileSync(join(folder, 'a.yaml'), `chapter: 99-foo\n${body}`)
    expect(refusalOf(() => loadVectorFolder(folder))).toEqual(new VectorFileError(`${folder}/a.yaml:1: chapter 99-foo is not a chapter of spec/ (its chapters: 00-processing to 20-storage)`))
    writeFileSync(join(folder, 'a.yaml'), `chapter: 05-surfce\n${body}`)
    expect(refusalOf(() => loadVectorFolder(folder))).toEqual(new VectorFileError(`${folder}/a.yaml:1: chapter 05-surfce is not a chapter of spec/; did you mean 05-surface?`))
  })

  it('reads through `link/..` the files the walk found there, named from that folder', () => {
    const root = join(dir, 'through-link')
    mkdirSync(join(root, 'real', 'inner'), { recursive: true })
    const file = (id: string): string => `chapter: 05-surface\ntitle: test file\ncases:\n${caseYaml('    log: []\n    steps:\n      - surface: {}\n        expect: {accept: true}\n').replace('id: c1', `id: ${id}`)}`
    writeFileSync(join(root, 'real', 'a.yaml'), file('found-by-walk'))
    writeFileSync(join(root, 'a.yaml'), file('beside-the-link'))
    symlinkSync(join(root, 'real', 'inner'), join(root, 'link'))
    // Not path.join: it would make `link/..` the folder that holds the link.
    expect(loadVectorFolder(`${root}/link/..`).map((vector) => [vector.id, vector.file])).toEqual([['found-by-walk', 'real/a.yaml']])
  })

  it('reads a .yml file as it reads a .yaml one', () => {
    const folder = join(dir, 'both-extensions')
    mkdirSync(folder, { recursive: true })
    const file = (id: string): string => `chapter: 05-surface\ntitle: test file\ncases:\n${caseYaml('    log: []\n    steps:\n      - surface: {}\n        expect: {accept: true}\n').replace('id: c1', `id: ${id}`)}`
    writeFileSync(join(folder, 'a.yaml'), file('from-yaml'))
    writeFileSync(join(folder, 'b.yml'), file('from-yml'))
    expect(loadVectorFolder(folder).map((vector) => vector.id)).toEqual(['from-yaml', 'from-yml'])
  })

  it('refuses a case id given twice in one file, naming both lines', () => {
    const folder = join(dir, 'twice-in-one')
    mkdirSync(folder, { recursive: true })
    const one = caseYaml('    log: []\n    steps:\n      - surface: {}\n        expect: {accept: true}\n')
    writeFileSync(join(folder, 'a.yaml'), `chapter: 05-surface\ntitle: test file\ncases:\n${one}${one}`)
    expect(refusalOf(() => loadVectorFolder(folder))).toEqual(new VectorFileError(`${folder}/a.yaml:12: case c1 is also at ${folder}/a.yaml:4: a case id names one case`))
  })
})

/** The error `load` throws; undefined when it throws none. */
function refusalOf(load: () => unknown): unknown {
  try {
    load()
  } catch (error) {
    return error
  }
  return undefined
}

describe('a case naming what spec/ does not give it', () => {
  const FILE = 'vectors/05-surface/cases.yaml'
  const withSteps = (requirements: string, profile: string, steps: string): string =>
    `  - id: c1\n    title: a case\n    requirements: [${requirements}]\n    profile: ${profile}\n    log: []\n    steps:\n${steps}`

  it('is refused at the line of the term: an unknown requirement ID or code, an unplaced rejection, a foreign operation', () => {
    expect(() => load(withSteps('SURF-3, FMT-99', 'reader', '      - surface: {}\n        expect: {accept: true}\n')))
      .toThrow(new VectorFileError(`${FILE}:6: case c1: requirements: FMT-99 is not a requirement ID of spec/`))
    expect(() => load(withSteps('SURF-3', 'reader', '      - load: {}\n        expect: {reject: {code: SURFACE_GONE, seq: 0}}\n')))
      .toThrow(new VectorFileError(`${FILE}:11: case c1: step 0: SURFACE_GONE is not a rejection code of spec/errors.md`))
    expect(() => load(withSteps('SURF-3', 'reader', '      - load: {}\n        expect: {reject: {code: SURFACE_OP_INVALID}}\n')))
      .toThrow(new VectorFileError(`${FILE}:11: case c1: step 0: a rejection says where it lies: its seq or its line, or null where the spec says it carries none`))
    expect(() => load(withSteps('SURF-3', 'relations', '      - surface: {}\n        expect: {accept: true}\n')))
      .toThrow(new VectorFileError(`${FILE}:10: case c1: step 0: surface is not an operation of the relations profile (spec/profiles.md)`))
    // Written as block mappings, the line is the key's, not that of the value below it.
    expect(() => load(withSteps('SURF-3', 'relations', '      - load:\n          vocabulary: v0-rc8\n        expect: {accept: true}\n')))
      .toThrow(new VectorFileError(`${FILE}:10: case c1: step 0: load is not an operation of the relations profile (spec/profiles.md)`))
    expect(() => load(withSteps('SURF-3', 'reader', '      - load: {}\n        expect:\n          reject:\n            code: SURFACE_OP_INVALID\n')))
      .toThrow(new VectorFileError(`${FILE}:12: case c1: step 0: a rejection says where it lies: its seq or its line, or null where the spec says it carries none`))
  })

  it('is refused when it cites a withdrawn rule or expects a retired code (spec/README.md, spec/errors.md)', () => {
    const terms = readSpecTerms(join(projectRoot, 'spec'))
    const tombstoned = { ...terms, withdrawn: new Set(['SURF-3']), retired: new Set(['SURFACE_OP_INVALID']) }
    const rejecting = (code: string) => ({ requirements: ['SURF-2'], profile: 'reader', steps: [{ operation: 'load', expect: { reject: { code, seq: 0 } } }] })
    expect(termFault(tombstoned, { ...rejecting('SURFACE_OP_MISSING'), requirements: ['SURF-2', 'SURF-3'] }))
      .toEqual({ where: ['requirements', 1], message: 'SURF-3 is withdrawn (spec/): a case cannot exercise a dropped rule' })
    expect(termFault(tombstoned, rejecting('SURFACE_OP_INVALID')))
      .toEqual({ where: ['steps', 0, 'expect', 'reject'], key: 'code', message: 'SURFACE_OP_INVALID is retired (spec/errors.md): no rule raises it any more' })
    expect(termFault(terms, rejecting('SURFACE_OP_INVALID'))).toBeUndefined()
  })

  it('is accepted when each term is the spec\'s, a writer case checking its appends with load, surface and messages', () => {
    const steps = '      - load: {}\n        expect: {accept: true}\n      - surface: {}\n        expect: {value: []}\n      - messages: {}\n        expect: {value: []}\n'
    expect(load(withSteps('SURF-3', 'writer', steps)).map((vector) => vector.steps.map((step) => step.operation))).toEqual([['load', 'surface', 'messages']])
    expect(load(withSteps('SURF-3', 'reader', '      - load: {}\n        expect: {reject: {code: SURFACE_OP_INVALID, seq: null}}\n'))).toHaveLength(1)
  })

  it('reads the operations of all eight profiles from spec/profiles.md', () => {
    const terms = readSpecTerms(join(projectRoot, 'spec'))
    expect([...terms.operationsOf.keys()].sort()).toEqual([...PROFILES].sort())
    expect([...terms.operationsOf.get('jsonl')!]).toEqual(['decodeJsonl', 'encodeJsonl', 'artifactPath'])
    expect([...terms.operationsOf.get('storage')!]).toEqual(['store'])
  })
})
