/**
 * docs/contributing.md stays true to the tree: every folder and file its layout block draws, every file a line
 * of that block names beside it, every repository path, bare file name and link its prose gives, exists.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DOC = 'docs/contributing.md';
const text = readFileSync(join(root, DOC), 'utf8');

const TOP = /^(src|test|bench|scripts|docs|contracts|patches)\//;
/** A token naming a file (by its extension) or a folder (by its trailing slash). */
const PATHLIKE = /^[\w.-]+(\/[\w.-]+)*(\.(ts|tsx|json|md|graphql)|\/)$/;

const exists = (path: string) => existsSync(join(root, path));

/** Files and folders of the repository whose names match a path with `<placeholder>` parts. */
function matching(pattern: string): boolean {
  const parts = pattern.replace(/\/$/, '').split('/');
  const walk = (dir: string, i: number): boolean => {
    if (i === parts.length) return true;
    const part = parts[i]!;
    if (!part.includes('<')) return exists(posix.join(dir, part)) && walk(posix.join(dir, part), i + 1);
    const re = new RegExp(`^${part.replace(/[.]/g, '\\.').replace(/<[^>]+>/g, '[^/]+')}$`);
    const full = join(root, dir);
    if (!existsSync(full) || !statSync(full).isDirectory()) return false;
    return readdirSync(full).some((name) => re.test(name) && walk(posix.join(dir, name), i + 1));
  };
  return walk('', 0);
}

/** Every file name of the repository outside node_modules, dist and dot-folders. */
function basenames(dir = '', into = new Set<string>()): Set<string> {
  for (const name of readdirSync(join(root, dir))) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = posix.join(dir, name);
    if (statSync(join(root, path)).isDirectory()) basenames(path, into);
    else into.add(name);
  }
  return into;
}

/** The layout block: each line's own path (from its indentation) and the paths its description names. */
function layout(): { path: string; named: string[] }[] {
  const block = /```tree\n([\s\S]*?)```/.exec(text)?.[1];
  if (!block) throw new Error(`${DOC} has no \`\`\`tree block`);
  const lines: { path: string; named: string[] }[] = [];
  const stack: { indent: number; dir: string }[] = [];
  for (const line of block.split('\n').filter((l) => l.trim())) {
    const indent = line.length - line.trimStart().length;
    const [name, ...rest] = line.trim().split(/\s{2,}/);
    const last = lines.at(-1);
    if (last && indent > (stack.at(-1)?.indent ?? -2) + 2) {
      // deeper than a child: the description of the line above goes on
      last.named.push(...tokens(line));
      continue;
    }
    while (stack.length && stack.at(-1)!.indent >= indent) stack.pop();
    const path = posix.join(stack.at(-1)?.dir ?? '', name!);
    if (name!.endsWith('/')) stack.push({ indent, dir: path });
    lines.push({ path, named: tokens(rest.join(' ')) });
  }
  return lines;
}

function tokens(description: string): string[] {
  return description.split(/[\s,;:()]+/).filter((t) => PATHLIKE.test(t));
}

describe(DOC, () => {
  it('draws only folders and files that exist, and names beside each only what is in its folder', () => {
    const missing: string[] = [];
    for (const { path, named } of layout()) {
      if (!exists(path)) missing.push(path);
      const folder = path.endsWith('/') ? path : posix.dirname(path);
      for (const t of named) {
        const full = TOP.test(t) ? t : posix.join(folder, t);
        if (!exists(full)) missing.push(`${full} (named on the line of ${path})`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('gives only repository paths, file names and links that exist', () => {
    const prose = text.replace(/```[\s\S]*?```/g, '');
    const quoted = [...prose.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!);
    const names = basenames();
    const missing = [
      ...quoted.filter((q) => TOP.test(q) && !(q.includes('<') ? matching(q) : exists(q))),
      ...quoted.filter((q) => !TOP.test(q) && !q.includes('/') && /\.(ts|tsx|json|graphql)$/.test(q) && !names.has(q)),
      ...[...prose.matchAll(/\]\(([^)#\s]+)\)/g)].map((m) => posix.join('docs', m[1]!)).filter((p) => !exists(p)),
    ];
    expect(missing).toEqual([]);
  });
});
