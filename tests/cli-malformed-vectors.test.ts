// A malformed vector file stops `run`, `list` and `matrix` before any case runs: the CLI names the file,
// the line and what is wrong, exits 2 and prints no stack. The CLI runs from a copy of the project
// whose vectors hold one broken file; a --vectors folder's entries that are no readable file are
// refused so too, in this process.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { projectRoot } from '../conformance/vector-cases.ts'
import { runCli, runCliHere } from './support/cli.ts'

const copy = mkdtempSync(join(tmpdir(), 'dsh-broken-vectors-'))
afterAll(() => rmSync(copy, { recursive: true, force: true }))

for (const entry of ['conformance', 'reference', 'schemas', 'spec', 'vectors', 'package.json']) cpSync(join(projectRoot, entry), join(copy, entry), { recursive: true })
symlinkSync(join(projectRoot, 'node_modules'), join(copy, 'node_modules'))
writeFileSync(join(copy, 'vectors/05-surface/zz-broken.yaml'), `chapter: 05-surface
title: a file with one broken log item
cases:
  - id: broken-one
    title: a user message with a modifier it does not read
    requirements: [SURF-3]
    profile: reader
    log:
      - {user: one, tokens: 5}
    steps:
      - surface: {}
        expect: {accept: true}
`)

const REFUSAL = 'dsh-conformance: the vectors cannot be loaded: '
  + 'vectors/05-surface/zz-broken.yaml: not a valid vector file: line 9, cases[0].log[0]: key "tokens" is not allowed here\n'

describe('a malformed vector file', () => {
  it.each([
    [['list']],
    [['run', '--adapter', 'reference', '--case', 'surf-*']],
    [['matrix', '--adapter', 'reference', '--case', 'surf-*']],
  ])('stops %j with exit 2, naming the file and line', async (args) => {
    const outcome = await runCli(args, {}, copy)
    expect(outcome).toEqual({ code: 2, stdout: '', stderr: REFUSAL })
  })
})

describe('a --vectors folder entry named like a vector file', () => {
  /** A folder of its own under the copy, holding the one entry `make` makes at the path it is given. */
  function folderWith(name: string, make: (path: string) => void): string {
    const folder = join(copy, 'own', name)
    mkdirSync(folder, { recursive: true })
    make(join(folder, 'a.yaml'))
    return folder
  }
  const bomb = ['x0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]',
    ...Array.from({ length: 9 }, (_, level) => `x${level + 1}: &a${level + 1} [${Array(10).fill(`*a${level}`).join(', ')}]`)].join('\n')

  it.each([
    ['a dangling link', (path: string) => symlinkSync('nowhere', path), (path: string) => `cannot read the vector file ${path}: a link to nowhere, which leads to no file or folder`],
    ['a link to itself', (path: string) => symlinkSync('a.yaml', path), (path: string) => `cannot read the vector file ${path}: ELOOP`],
    // Opened, a named pipe waits for a writer for ever.
    ['a named pipe', (path: string) => execFileSync('mkfifo', [path]), (path: string) => `${path}: named like a vector file but not a regular file (a pipe, socket or device), so not read`],
    ['an alias bomb', (path: string) => writeFileSync(path, `${bomb}\n`), (path: string) => `${path}: not YAML: Excessive alias count indicates a resource exhaustion attack`],
  ])('that is %s stops list with exit 2 and one line naming it', async (name, make, refusal) => {
    const folder = folderWith(name.replaceAll(' ', '-'), make)
    const outcome = await runCliHere(['list', '--vectors', folder])
    // What follows ELOOP is the system's wording.
    expect({ ...outcome, stderr: outcome.stderr.replace(/(ELOOP): [^\n]*/, '$1') }).toEqual({ code: 2, stdout: '', stderr: `dsh-conformance: the vectors cannot be loaded: ${refusal(join(folder, 'a.yaml'))}\n` })
  })
})
