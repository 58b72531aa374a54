// The help text against the parser: each command's usage lists the options it accepts, no more, and the
// usage of every command lists them all.
import { describe, expect, it } from 'vitest'
import { ALLOWED, type Command } from '../conformance/cli-options.ts'
import { commandUsage, USAGE } from '../conformance/cli-usage.ts'

/** The options an option line of a usage names before its description (`--md FILE, --html FILE`). */
function listedOptions(usage: string): string[] {
  return usage.split('\n').filter(line => line.startsWith('  --')).flatMap(line => line.slice(0, 28).match(/--[a-z-]+/g) ?? [])
}

const COMMANDS = Object.keys(ALLOWED) as Command[]

describe('the usage of run, list and matrix', () => {
  it.each(COMMANDS)('%s --help lists exactly the options %s accepts', command => {
    expect(listedOptions(commandUsage(command)).sort()).toEqual([...ALLOWED[command]].sort())
  })

  it('lists every option of every command in the general usage, once', () => {
    const every = [...new Set(COMMANDS.flatMap(command => ALLOWED[command]))].sort()
    expect(listedOptions(USAGE).sort()).toEqual(every)
  })

  it('names the commands an option section applies to in the general usage only', () => {
    expect(USAGE).toContain('\nadapters (run, matrix; they run in the order given):\n')
    expect(USAGE).toContain('\nbaselines and reports (run):\n')
    expect(commandUsage('run')).toContain('\nadapters (they run in the order given):\n')
    expect(commandUsage('run')).toContain('\nbaselines and reports:\n')
    // Every exit 1 the run gives is named, a run that tested nothing included (results.ts).
    expect(commandUsage('run')).toContain('or when every selected case was skipped (the run tested\nnothing)')
    expect(commandUsage('run')).toContain('when an adapter cannot start or breaks the protocol after\nits last reply')
  })

  it('keeps a command\'s description beside its synopsis, its further lines under the first', () => {
    const lines = USAGE.split('\n')
    const run = lines.findIndex(line => line.startsWith('  run [options]'))
    expect(lines[run]).toBe('  run [options]             run the selected vectors against each adapter (default: --adapter reference)')
    expect(lines[run + 1]).toBe(`${' '.repeat(28)}and print a summary per adapter; exit 1 on any error, on a fail no baseline`)
    // Too long for the column: the synopsis stands alone.
    const fuzz = lines.findIndex(line => line.startsWith('  fuzz '))
    expect(lines[fuzz]).toBe('  fuzz (--adapter NAME | --adapter-cmd CMD | --adapter-module PATH) --out DIR [options]')
    expect(lines[fuzz + 1]).toBe(`${' '.repeat(28)}differential fuzzing against the reference; each disagreement is shrunk`)
  })
})
