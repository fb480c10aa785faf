import { isDeepStrictEqual } from 'node:util';

/** A position in a JSON text: where a value starts and ends, and for containers, where its parts are. */
interface JsonNode {
  readonly start: number;
  readonly end: number;
  readonly items?: JsonNode[];
  readonly members?: Map<string, JsonNode>;
}

/**
 * Appends `element` to the array at `path` by editing the text, not by re-printing the whole file, so a
 * hand-formatted file (config.json, the realm) keeps its layout and the diff is the one new element.
 * The result is parsed back and compared with the intended value; any difference is an error.
 *
 * @example
 * appendToArray(text, ['clients', 0, 'redirectUris'], 'http://localhost:3004/*')
 */
export function appendToArray(text: string, path: readonly (string | number)[], element: unknown): string {
  const node = nodeAt(parse(text), path);
  if (!node.items) throw new Error(`${describe(path)} is not an array.`);
  const lineIndent = indentOfLine(text, node.start);
  let edited: string;
  const last = node.items[node.items.length - 1];
  if (last === undefined) {
    const inner = `${lineIndent}  `;
    edited = `${text.slice(0, node.start)}[\n${inner}${format(element, inner, true)}\n${lineIndent}]${text.slice(node.end)}`;
  } else if (text.slice(node.start, node.items[0]!.start).includes('\n')) {
    const indent = indentOfLine(text, last.start);
    edited = `${text.slice(0, last.end)},\n${indent}${format(element, indent, true)}${text.slice(last.end)}`;
  } else {
    edited = `${text.slice(0, last.end)}, ${format(element, lineIndent, false)}${text.slice(last.end)}`;
  }

  const intended = JSON.parse(text) as unknown;
  (valueAt(intended, path) as unknown[]).push(element);
  if (!isDeepStrictEqual(JSON.parse(edited), intended)) throw new Error(`Editing ${describe(path)} went wrong; nothing was written.`);
  return edited;
}

/** JSON the way the repository's hand-written files look: short arrays and objects on one line. */
export function format(value: unknown, indent: string, expandTop: boolean): string {
  const inline = inlineJson(value);
  if (typeof value !== 'object' || value === null || (!expandTop && inline.length <= 60)) return inline;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => inner + format(v, inner, false)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${format(v, inner, false)}`).join(',\n')}\n${indent}}`;
}

function inlineJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inlineJson).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${inlineJson(v)}`).join(', ')} }`;
  }
  return JSON.stringify(value);
}

function indentOfLine(text: string, position: number): string {
  const lineStart = text.lastIndexOf('\n', position - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

function describe(path: readonly (string | number)[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('') || '(root)';
}

function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  return path.reduce<unknown>((current, key) => (current as Record<string | number, unknown>)[key], value);
}

function nodeAt(root: JsonNode, path: readonly (string | number)[]): JsonNode {
  let node = root;
  for (const key of path) {
    const next = typeof key === 'number' ? node.items?.[key] : node.members?.get(key);
    if (!next) throw new Error(`${describe(path)} does not exist.`);
    node = next;
  }
  return node;
}

/** A small JSON parser that keeps positions (JSON.parse has validated the text's syntax by then). */
function parse(text: string): JsonNode {
  JSON.parse(text);
  let pos = 0;
  const skip = () => {
    while (/\s/.test(text[pos] ?? '')) pos += 1;
  };
  const string = (): string => {
    const start = pos;
    pos += 1;
    while (text[pos] !== '"') pos += text[pos] === '\\' ? 2 : 1;
    pos += 1;
    return JSON.parse(text.slice(start, pos)) as string;
  };
  const value = (): JsonNode => {
    skip();
    const start = pos;
    const c = text[pos];
    if (c === '{') {
      pos += 1;
      const members = new Map<string, JsonNode>();
      skip();
      while (text[pos] !== '}') {
        skip();
        const key = string();
        skip();
        pos += 1; // :
        members.set(key, value());
        skip();
        if (text[pos] === ',') pos += 1;
        skip();
      }
      pos += 1;
      return { start, end: pos, members };
    }
    if (c === '[') {
      pos += 1;
      const items: JsonNode[] = [];
      skip();
      while (text[pos] !== ']') {
        items.push(value());
        skip();
        if (text[pos] === ',') pos += 1;
        skip();
      }
      pos += 1;
      return { start, end: pos, items };
    }
    if (c === '"') {
      string();
      return { start, end: pos };
    }
    while (pos < text.length && !/[\s,\]}]/.test(text[pos] ?? '')) pos += 1;
    return { start, end: pos };
  };
  return value();
}
