// conformance/reports/write.ts: how every command writes its output files (reports, baselines, the
// matrix, audit's report, fuzz's summary and vectors). A file is replaced whole or not at all.
import { chmodSync, closeSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { makeOutputFolder, openDescriptor, replaceFile, writeOutputFile } from '../conformance/reports/write.ts'

const scratch = mkdtempSync(join(tmpdir(), 'output-files-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function folder(name: string): string {
  const made = join(scratch, name)
  mkdirSync(made)
  return made
}

describe('replacing a file', () => {
  it('writes a new file, and leaves nothing beside it', () => {
    const at = folder('new')
    replaceFile(join(at, 'report.md'), 'text\n')
    expect(readFileSync(join(at, 'report.md'), 'utf8')).toBe('text\n')
    expect(readdirSync(at)).toEqual(['report.md'])
  })

  it('replaces an existing file whole, keeping its permissions', () => {
    const at = folder('existing')
    const file = join(at, 'baseline.yaml')
    writeFileSync(file, 'an old baseline, longer than the new one\n')
    chmodSync(file, 0o600)
    replaceFile(file, 'new\n')
    expect(readFileSync(file, 'utf8')).toBe('new\n')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(readdirSync(at)).toEqual(['baseline.yaml'])
  })

  it('leaves the old file as it was when the new one cannot be written', () => {
    // What stands where the new text would go (here a folder of that name; a full disk does the same)
    // stops the write before the old file is touched, and stays.
    const at = folder('failing')
    const file = join(at, 'report.json')
    writeFileSync(file, '{"old": true}\n')
    mkdirSync(join(at, `.report.json.${process.pid}.tmp`))
    expect(() => replaceFile(file, '{"new": true}\n')).toThrow(`EISDIR: illegal operation on a directory, open '${file}'`)
    expect(readFileSync(file, 'utf8')).toBe('{"old": true}\n')
    expect(readdirSync(at).sort()).toEqual([`.report.json.${process.pid}.tmp`, 'report.json'])
    // The error names the file asked for as it is, a name holding `$&` or `$'` included.
    const odd = join(at, "r$&$'.json")
    mkdirSync(join(at, `.r$&$'.json.${process.pid}.tmp`))
    expect(() => replaceFile(odd, 'x')).toThrow(`EISDIR: illegal operation on a directory, open '${odd}'`)
  })

  it('follows a link: the link stays, the file it leads to takes the text', () => {
    const at = folder('linked')
    writeFileSync(join(at, 'real.yaml'), 'old\n')
    symlinkSync('real.yaml', join(at, 'link.yaml'))
    replaceFile(join(at, 'link.yaml'), 'new\n')
    expect(lstatSync(join(at, 'link.yaml')).isSymbolicLink()).toBe(true)
    expect(readFileSync(join(at, 'real.yaml'), 'utf8')).toBe('new\n')
  })

  it('replaces the file `link/..` leads to, not a file of that name beside the link', () => {
    const at = folder('through-link')
    mkdirSync(join(at, 'real', 'inner'), { recursive: true })
    writeFileSync(join(at, 'real', 'report.json'), 'old\n')
    writeFileSync(join(at, 'report.json'), 'beside the link\n')
    symlinkSync(join(at, 'real', 'inner'), join(at, 'link'))
    replaceFile(`${at}/link/../report.json`, 'new\n')
    expect(readFileSync(join(at, 'real', 'report.json'), 'utf8')).toBe('new\n')
    expect(readFileSync(join(at, 'report.json'), 'utf8')).toBe('beside the link\n')
  })

  it('writes through a descriptor the process holds (/dev/stdout, /dev/fd/N): at its offset, never replacing its file', () => {
    // A shell's `>> summary.md` behind /dev/stdout: replacing the file lost what it held, and left
    // the descriptor on a file no longer there.
    const file = join(folder('descriptor'), 'summary.md')
    writeFileSync(file, 'earlier steps\n')
    const inode = statSync(file).ino
    const fd = openSync(file, 'a')
    try {
      expect(openDescriptor(`/dev/fd/${fd}`)).toBe(fd)
      replaceFile(`/dev/fd/${fd}`, 'the report\n')
      replaceFile(`/proc/self/fd/${fd}`, 'and more\n')
    } finally {
      closeSync(fd)
    }
    expect(readFileSync(file, 'utf8')).toBe('earlier steps\nthe report\nand more\n')
    expect(statSync(file).ino).toBe(inode)
    expect([openDescriptor('/dev/stdout'), openDescriptor('/dev/stderr'), openDescriptor('/dev/null'), openDescriptor('/dev/fd/x')]).toEqual([1, 2, undefined, undefined])
  })

  it('writes a device as it is, rather than replacing it', () => {
    replaceFile('/dev/null', 'discarded\n')
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true)
  })
})

describe('writing an output file', () => {
  it('makes the missing folders first', () => {
    const file = join(scratch, 'made', 'deeper', 'matrix.html')
    writeOutputFile(file, '<!doctype html>\n')
    expect(readFileSync(file, 'utf8')).toBe('<!doctype html>\n')
  })

  it('names the file that stands where a folder should be', () => {
    const at = folder('blocked')
    writeFileSync(join(at, 'reports'), 'a file\n')
    expect(() => writeOutputFile(join(at, 'reports', 'run.json'), '{}\n')).toThrow(`${join(at, 'reports')} is a file, not a folder`)
    expect(() => makeOutputFolder(join(at, 'reports', 'fuzz'))).toThrow(`${join(at, 'reports')} is a file, not a folder`)
    expect(() => makeOutputFolder(join(at, 'reports'))).toThrow(`${join(at, 'reports')} is a file, not a folder`)
  })
})
