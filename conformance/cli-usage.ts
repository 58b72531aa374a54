// The help text of dsh-conformance: the usage of every command (`--help`), and of `run`, `list` and
// `matrix` one by one (`run --help`), built from the same pieces so that the two cannot drift apart.
import { ADAPTER_NAMES } from './adapters/registry.ts'
import type { Command } from './cli-options.ts'
import { DEFAULT_TIMEOUT_MS } from './subprocess-adapter.ts'

/** Where the descriptions of the commands list start. */
const DESCRIPTION_COLUMN = 28

interface CommandHelp {
  synopsis: string
  /** Lines of at most 76 characters. */
  description: string[]
}

const VECTOR_COMMANDS: Record<Command, CommandHelp> = {
  run: {
    synopsis: 'run [options]',
    description: [
      'run the selected vectors against each adapter (default: --adapter reference)',
      'and print a summary per adapter; exit 1 on any error, on a fail no baseline',
      'lists, on a NEW PASS or an id the suite does not have under',
      '--strict-baseline, when an adapter cannot start or breaks the protocol after',
      'its last reply, or when every selected case was skipped (the run tested',
      'nothing); 2 on a usage error, no matching case, vectors that cannot be',
      'loaded, or a baseline or report that cannot be read or written; an',
      'in-process operation that never returns is killed (SIGKILL) after twice',
      '--timeout, without reports',
    ],
  },
  list: {
    synopsis: 'list [options]',
    description: [
      'list the selected vectors: id, profile, requirements, operations, title; exit',
      '2 on a usage error, no matching case, or vectors that cannot be loaded',
    ],
  },
  matrix: {
    synopsis: 'matrix [options]',
    description: [
      'run the adapters and render requirement × implementation (passed/cases per',
      'cell, skips shown apart) as Markdown on stdout, or into --md / --html files;',
      'exit 0 whatever the cells say, 1 when an adapter cannot start or breaks the',
      'protocol after its last reply, 2 on a usage error, no matching case, vectors',
      'that cannot be loaded, or a file that cannot be written; an in-process',
      'operation that never returns is killed (SIGKILL) after twice --timeout,',
      'without files',
    ],
  },
}

const OTHER_COMMANDS: CommandHelp[] = [
  { synopsis: 'serve', description: ['the reference interpreter as a subprocess adapter on stdin/stdout', '(spec/adapter-protocol.md)'] },
  {
    synopsis: 'compare (--adapter NAME | --adapter-cmd CMD | --adapter-module PATH) --operation OP INPUT...',
    description: ['inputs of your own through the adapter and the reference, each judged as a', 'vector step is (dsh-conformance compare --help)'],
  },
  { synopsis: 'check PATH... [options]', description: ['check stored session logs (files or folders), streaming', '(dsh-conformance check --help for its options)'] },
  { synopsis: 'audit LOG [options]', description: ['the seven acceptance rows of one stored log, with evidence', '(dsh-conformance audit --help for its options)'] },
  {
    synopsis: 'fuzz (--adapter NAME | --adapter-cmd CMD | --adapter-module PATH) --out DIR [options]',
    description: ['differential fuzzing against the reference; each disagreement is shrunk', 'and written as a vector for review (dsh-conformance fuzz --help)'],
  },
]

interface OptionSection {
  name: string
  commands: readonly Command[]
  note?: string
  options: string
}

const OPTION_SECTIONS: OptionSection[] = [
  {
    name: 'adapters',
    commands: ['run', 'matrix'],
    note: 'they run in the order given',
    options: `  --adapter NAME            an in-process adapter: ${ADAPTER_NAMES.join(', ')}
  --adapter-cmd COMMAND     any program that speaks spec/adapter-protocol.md, run through the shell
  --adapter-module PATH     an in-process adapter of your own: a JavaScript or TypeScript module whose
                            export named adapter (or else its default export) is an Adapter {meta,
                            operations}
  --timeout MS              how long to wait for each reply of an --adapter-cmd, and for each operation
                            of an in-process adapter (default ${DEFAULT_TIMEOUT_MS})`,
  },
  {
    name: 'vectors',
    commands: ['run', 'list', 'matrix'],
    options: `  --vectors DIR             the vector files under DIR instead of the suite's: counterexamples that
                            dsh-conformance fuzz wrote, or cases of your own in the suite's format
                            (vectors/README.md); the suite hash is then that of those files`,
  },
  {
    name: 'filters',
    commands: ['run', 'list', 'matrix'],
    note: 'repeat an option or separate values with commas; all filters must match',
    options: `  --chapter CHAPTER         a chapter: 05-surface, or its number 05
  --requirement ID          a requirement ID (SURF-5) or a whole prefix (SURF)
  --profile PROFILE         reader, writer, relations, repair, compaction, fork, jsonl or storage
  --operation NAME          the cases with a step of an operation: load, surface, decodeJsonl, …
  --case GLOB               case ids matching a glob ('surf-order-*'; * any run, ? one character)`,
  },
  {
    name: 'baselines and reports',
    commands: ['run'],
    options: `  --baseline FILE           known failures of one adapter (YAML or JSON: adapter, suiteHash, failures
                            [{id, reason}]); applies to the adapter it names (a lone baseline of a
                            lone adapter applies to it whatever it names, with a note). May be repeated
  --strict-baseline         a listed case that now passes (NEW PASS) fails the run too, and so does
                            a listed id the suite does not have (or the --vectors folder, when the
                            baseline was written for one)
  --write-baseline FILE     write each adapter's current failures to FILE (its folder made when
                            missing), keeping the reasons of the cases a previous baseline explains;
                            with several adapters FILE must hold {adapter}, replaced by each
                            adapter's name (a / or \\, or a character the console shows escaped,
                            written _; a name of . or .. as _ or __)
  --report FORMAT=PATH,…    write reports: json=PATH (schemas/run-report.schema.json), junit=PATH,
                            md=PATH (append it to a CI job summary); a comma followed by no
                            FORMAT= stays in the path`,
  },
  {
    name: 'protocol lines',
    commands: ['list'],
    options: `  --requests                print, instead of the cases, the lines a subprocess adapter is sent for
                            them (start, each step's run, numbered from 0, then stop): pipe them to
                            your adapter and to dsh-conformance serve, and compare the replies`,
  },
  {
    name: 'output files',
    commands: ['matrix'],
    options: '  --md FILE, --html FILE    write the matrix as Markdown, or as a self-contained HTML page',
  },
]

/** `  run [options]             run the selected …`, its further lines under the first. */
function commandEntry({ synopsis, description }: CommandHelp): string {
  const head = `  ${synopsis}`
  const body = description.map(line => `${' '.repeat(DESCRIPTION_COLUMN)}${line}`)
  // A synopsis too long for the column stands on a line of its own.
  if (head.length >= DESCRIPTION_COLUMN) return [head, ...body].join('\n')
  return [`${head.padEnd(DESCRIPTION_COLUMN)}${description[0]}`, ...body.slice(1)].join('\n')
}

/** A section's options under its title; the title names its commands only where they are not implied. */
function sectionText(section: OptionSection, namingCommands: boolean): string {
  const parts = [...(namingCommands ? [section.commands.join(', ')] : []), ...(section.note === undefined ? [] : [section.note])]
  return `${section.name}${parts.length === 0 ? '' : ` (${parts.join('; ')})`}:\n${section.options}`
}

/** The usage of every command, with every option of run, list and matrix. */
export const USAGE = [
  'usage: dsh-conformance <command> [options]',
  `commands:\n${[...Object.values(VECTOR_COMMANDS), ...OTHER_COMMANDS].map(commandEntry).join('\n')}`,
  ...OPTION_SECTIONS.map(section => sectionText(section, true)),
].join('\n\n')

/** The usage of run, list or matrix alone, with the options it takes. */
export function commandUsage(command: Command): string {
  const { synopsis, description } = VECTOR_COMMANDS[command]
  const what = description.join('\n')
  return [
    `usage: dsh-conformance ${synopsis}`,
    `${what[0]!.toUpperCase()}${what.slice(1)}.`,
    ...OPTION_SECTIONS.filter(section => section.commands.includes(command)).map(section => sectionText(section, false)),
    'dsh-conformance --help lists the other commands.',
  ].join('\n\n')
}
