import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * Every comment that names a repository file names one that exists. Scanned: the comments of every
 * .ts/.tsx/.mjs file under the source roots and the whole text of every README.md. A reference that
 * leaves the repository (`../shared/…`, the team's reference folder) fails too: a reader who cloned
 * the repository does not have it, so the comment must state the rule itself.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sourceRoots = ['functions', 'shared', 'infra', 'test'];
const skippedFolders = new Set(['node_modules', 'dist', 'cdk.out', '.mailwright', '.git']);
/** Generated and git-ignored (.gitignore): named by comments, present once built. */
const generatedPaths = ['functions/dashboard/dist', 'functions/dashboard/app/src/lib/schema.d.ts', 'client/openapi.json', 'client/schema.d.ts', 'cdk.out', '.mailwright'];
const moduleExtensions = ['', '.ts', '.tsx', '.mjs', '.js', '.d.ts'];

/** A path from the repository root (`shared/…`), or one relative to the file (`./…`, `../…`). */
const pathPattern = /(?<![\w@./-])(?:(?:functions|shared|infra|test)\/|\.\.?\/)[\w.\-/<>{}*…]*/g;
/** A markdown link's target (READMEs): `[text](local/README.md)`. */
const linkPattern = /\]\(([^)\s#]+)(?:#[^)]*)?\)/g;
/** Files the project does not have and comments once cited bare. */
const missingBareNames = /\bDESIGN\.md\b/g;

function walk(folder: string, accept: (file: string) => boolean): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (skippedFolders.has(entry.name)) return [];
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return walk(full, accept);
    return accept(entry.name) ? [full] : [];
  });
}

/** Every comment of the file, from the syntax tree: a raw token scan misreads template literals. */
function commentsOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const comments = new Map<number, string>();
  const collect = (ranges: ts.CommentRange[] | undefined) => ranges?.forEach((range) => comments.set(range.pos, text.slice(range.pos, range.end)));
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  return [...comments.values()];
}

function exists(target: string): boolean {
  return moduleExtensions.some((extension) => existsSync(target + extension));
}

/** What `text` (found in `file`) names that does not exist, as `file: reference (why)`. */
function brokenReferences(file: string, text: string): string[] {
  const where = path.relative(root, file);
  const prose = text.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, ''); // URLs name no repository file
  const candidates = [...prose.matchAll(pathPattern)].map((match) => match[0].replace(/[.\-/]+$/, ''));
  if (path.basename(file) === 'README.md') {
    candidates.push(...[...prose.matchAll(linkPattern)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('/')));
  }
  const broken: string[] = [];
  for (const reference of new Set(candidates)) {
    if (/[<>{}*…]/.test(reference) || !reference.includes('/') || reference === '.' || reference === '..') continue; // a pattern (`shared/<domain>/`), not a file
    const relative = reference.startsWith('./') || reference.startsWith('../') || !/^(functions|shared|infra|test)\//.test(reference);
    const target = path.resolve(relative ? path.dirname(file) : root, reference);
    if (!target.startsWith(root + path.sep)) broken.push(`${where}: ${reference} (outside the repository)`);
    else if (!exists(target) && !generatedPaths.some((generated) => path.relative(root, target).startsWith(generated))) broken.push(`${where}: ${reference}`);
  }
  for (const match of prose.matchAll(missingBareNames)) broken.push(`${where}: ${match[0]} (no such file in the repository)`);
  return broken;
}

function scannedFiles(): string[] {
  const sources = sourceRoots.flatMap((folder) => walk(path.join(root, folder), (name) => /\.(ts|tsx|mjs)$/.test(name) && !name.endsWith('.d.ts')));
  const readmes = [path.join(root, 'README.md'), ...sourceRoots.flatMap((folder) => walk(path.join(root, folder), (name) => name === 'README.md'))];
  return [...sources, ...readmes];
}

describe('comments that name files', () => {
  it('name files and folders that exist', () => {
    // Prepare
    const files = scannedFiles();

    // Act
    const broken = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return brokenReferences(file, file.endsWith('README.md') ? text : commentsOf(file, text).join('\n'));
    });

    // Assess
    expect(files.length).toBeGreaterThan(300);
    expect(broken).toEqual([]);
  });

  it('catch a missing file, a missing relative file, a reference outside the repository and DESIGN.md', () => {
    // Prepare
    const file = path.join(root, 'shared/http/handler.ts');
    const comment = [
      '// see shared/http/handler.ts and shared/http/ and ./routes.ts (the one route table) and ../config/env.ts',
      '// see shared/http/no-such-file.ts, ./no-such.ts and shared/<domain>/operations.ts',
      '// the team reference ../../../shared/DESIGN.md; https://example.com/shared/x.ts is a URL',
    ].join('\n');

    // Act
    const broken = brokenReferences(file, comment);

    // Assess
    expect(statSync(file).isFile()).toBe(true);
    expect(broken).toEqual([
      'shared/http/handler.ts: shared/http/no-such-file.ts',
      'shared/http/handler.ts: ./no-such.ts',
      'shared/http/handler.ts: ../../../shared/DESIGN.md (outside the repository)',
      'shared/http/handler.ts: DESIGN.md (no such file in the repository)',
    ]);
  });
});
