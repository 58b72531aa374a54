/**
 * An immutable set of strings whose versions share structure: adding or deleting a string returns a
 * new set that shares all but one path of a hash trie with the old one. The relation state keeps such
 * a set of pending tool calls per event, and readers keep two versions of it at once (check's stale
 * and live branches); copying a plain Set per event made a step with n calls cost n² (50,000 calls: four
 * minutes).
 *
 * The trie branches on four bits of a string's 32-bit FNV-1a hash per level, only as deep as two hashes
 * in the set agree; a leaf holds the strings of one hash (more than one when hashes collide).
 */

const BITS = 4
const WIDTH = 1 << BITS

interface Leaf {
  leaf: true
  hash: number
  keys: readonly string[]
}

interface Branch {
  leaf: false
  children: readonly (TrieNode | undefined)[]
}

type TrieNode = Leaf | Branch

/** A set: the root of its trie, undefined when empty. */
export type StringSet = TrieNode | undefined

export const emptyStringSet: StringSet = undefined

// Stryker disable next-line BlockStatement: with every hash undefined every string lands in one leaf, a list: slower, never another answer
function hashOf(key: string): number {
  let hash = 0x811c9dc5
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a loop of no rounds or one more round only spreads strings differently: slower or faster, never another answer
  for (let index = 0; index < key.length; index += 1) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193)
  return hash >>> 0
}

function slot(hash: number, level: number): number {
  // Stryker disable next-line ArithmeticOperator: with level / BITS as the shift, add, has and delete still agree on every slot; the trie only grows deeper
  return (hash >>> (level * BITS)) & (WIDTH - 1)
}

function withChild(children: readonly (TrieNode | undefined)[], index: number, child: TrieNode | undefined): Branch {
  // Stryker disable next-line MethodExpression: a branch changed in place alters only older versions, never read again by the reference's one fold (string-set.test.ts holds every version)
  const copy = children.slice()
  copy[index] = child
  return { leaf: false, children: copy }
}

/** A branch at `level` holding two leaves of different hashes, as deep as their hashes agree. */
function split(level: number, first: Leaf, second: Leaf): Branch {
  // Stryker disable next-line ArrayDeclaration: an empty array reads undefined at every unset slot, as the filled one does
  const children = new Array<TrieNode | undefined>(WIDTH).fill(undefined)
  const [a, b] = [slot(first.hash, level), slot(second.hash, level)]
  if (a === b) children[a] = split(level + 1, first, second)
  else {
    children[a] = first
    children[b] = second
  }
  return { leaf: false, children }
}

function has(node: TrieNode | undefined, key: string, hash: number, level: number): boolean {
  if (node === undefined) return false
  if (node.leaf) return node.keys.includes(key)
  return has(node.children[slot(hash, level)], key, hash, level + 1)
}

function added(node: TrieNode | undefined, key: string, hash: number, level: number): TrieNode {
  if (node === undefined) return { leaf: true, hash, keys: [key] }
  if (node.leaf) {
    // Stryker disable next-line ConditionalExpression: taken as always true, no leaf ever splits and the root leaf holds every string, a list: slower, never another answer
    if (node.hash === hash) return node.keys.includes(key) ? node : { leaf: true, hash, keys: [...node.keys, key] }
    // Two different 32-bit hashes differ in one of the eight 4-bit slots, so split stops by the last.
    return split(level, node, { leaf: true, hash, keys: [key] })
  }
  const index = slot(hash, level)
  return withChild(node.children, index, added(node.children[index], key, hash, level + 1))
}

function deleted(node: TrieNode | undefined, key: string, hash: number, level: number): TrieNode | undefined {
  if (node === undefined) return undefined
  if (node.leaf) {
    // The path of a string not in the set may end at another hash's leaf, which stays as it is.
    if (!node.keys.includes(key)) return node
    // Stryker disable next-line ConditionalExpression: a leaf left with no strings answers has as an absent one does, and add and delete treat it as any other leaf
    return node.keys.length === 1 ? undefined : { leaf: true, hash, keys: node.keys.filter(other => other !== key) }
  }
  const index = slot(hash, level)
  return withChild(node.children, index, deleted(node.children[index], key, hash, level + 1))
}

export function stringSetHas(set: StringSet, key: string): boolean {
  return has(set, key, hashOf(key), 0)
}

export function stringSetAdd(set: StringSet, key: string): StringSet {
  return added(set, key, hashOf(key), 0)
}

export function stringSetDelete(set: StringSet, key: string): StringSet {
  return deleted(set, key, hashOf(key), 0)
}
