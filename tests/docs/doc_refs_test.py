#!/usr/bin/python3
"""Every reference from the code to the documentation resolves.

Scans the comments of source files (.h .cc .proto .py .js .ts .go .sh .cmake,
CMakeLists.txt) for
  - a markdown path, `docs/<file>.md` or `bench/README.md` (any path with a
    directory, or README.md), optionally followed by a quoted section:
    `docs/worlds.md, "Verdicts"` or `docs/meshes.md "Map import"`;
  - a README section: `README "Section"`, `README, "Section"`,
    `README: Section` or `README, Section`;
and the markdown files (README.md, docs/*.md, bench/README.md) for links
`[text](path#anchor)` and backticked repository paths (`server/main.cc`).
Fails naming each reference whose file does not exist or whose section is not
a heading of that file. A self-check on a synthetic tree first proves that
the scanner finds bad references.

Usage: doc_refs_test.py [SOURCE_ROOT]   (default: the repository of this file)
"""
import os
import re
import sys
import tempfile

SOURCE_SUFFIXES = ('.h', '.cc', '.proto', '.py', '.js', '.ts', '.go', '.sh', '.cmake')
HASH_COMMENT_SUFFIXES = ('.py', '.sh', '.cmake')
SKIP_DIRS = {'.git', 'node_modules', '__pycache__', 'corpus', 'results'}
# Documents linked before they exist (written on another branch); none now.
PENDING = set()
# First path components that name the repository's own folders.
TOP_DIRS = ('bench', 'client', 'convert', 'core', 'deploy', 'docker', 'docs', 'examples', 'import', 'proto',
            'scripts', 'server', 'tests')

MD_PATH = re.compile(r'(?<![\w/.${}-])((?:[\w-]+/)+[\w.-]+\.md|README\.md)\b'
                     r'(?:\s*,?\s*"([^"]+)")?')
README_QUOTED = re.compile(r'\bREADME(?!\.md)\s*[:,]?\s*"([^"]+)"')
README_BARE = re.compile(r'\bREADME(?!\.md)\s*[:,]\s*([A-Za-z][^"\n]*)')
MD_LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)\)')
BACKTICK = re.compile(r'`([^`\s]+)`')


def source_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        dirnames[:] = [d for d in dirnames
                       if d not in SKIP_DIRS and not (rel == '.' and (d.startswith('build') or d.startswith('.')))]
        for f in filenames:
            if f.endswith(SOURCE_SUFFIXES) or f == 'CMakeLists.txt':
                yield os.path.join(dirpath, f)


def comment_blocks(path):
    """Yields (first line number, text) of runs of consecutive comment lines,
    markers stripped and lines joined by spaces."""
    hash_style = path.endswith(HASH_COMMENT_SUFFIXES) or path.endswith('CMakeLists.txt')
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            lines = f.read().split('\n')
    except OSError:
        return
    block, start = [], 0
    for number, line in enumerate(lines, 1):
        text = None
        if hash_style:
            i = line.find('#')
            if i >= 0 and not line.startswith('#!'):
                text = line[i + 1:]
        else:
            i = line.find('//')
            if i >= 0:
                text = line[i + 2:]
            else:
                stripped = line.strip()
                if stripped.startswith(('/*', '*')):
                    text = stripped.lstrip('/*').rstrip('*/')
        # Quoted program text (a help string) counts as well: it is read by people.
        if text is None and 'README' in line:
            text = line
        if text is None:
            if block:
                yield start, ' '.join(block)
                block = []
            continue
        if not block:
            start = number
        block.append(text.strip())
    if block:
        yield start, ' '.join(block)


def headings(md_path, cache={}):
    """The headings of a markdown file (outside code fences), as written."""
    if md_path not in cache:
        found = []
        try:
            with open(md_path, encoding='utf-8') as f:
                fenced = False
                for line in f:
                    if line.startswith('```'):
                        fenced = not fenced
                    elif not fenced and line.startswith('#'):
                        found.append(line.lstrip('#').strip())
        except OSError:
            pass
        cache[md_path] = found
    return cache[md_path]


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r'[^\w\- ]', '', s)
    return s.replace(' ', '-')


def has_heading(md_path, section):
    want = section.strip().rstrip('.').lower()
    return any(h.lower() == want for h in headings(md_path))


def heading_prefix(md_path, text):
    """The longest heading that `text` starts with, or None."""
    t = text.lower()
    best = None
    for h in headings(md_path):
        hl = h.lower()
        if t.startswith(hl) and (len(t) == len(hl) or not t[len(hl)].isalnum()):
            if best is None or len(h) > len(best):
                best = h
    return best


def check_sources(root):
    problems = []
    readme = os.path.join(root, 'README.md')
    for path in source_files(root):
        rel = os.path.relpath(path, root)
        if os.path.abspath(path) == os.path.abspath(__file__):
            continue  # this file's examples
        for line, text in comment_blocks(path):
            where = f'{rel}:{line}'
            for m in MD_PATH.finditer(text):
                target, section = m.group(1), m.group(2)
                # Paths of this repository (another project's doc/x.md is not ours).
                if target in PENDING or not (target.split('/')[0] in TOP_DIRS or target == 'README.md'
                                             or '/docs/' in '/' + target):
                    continue
                full = os.path.join(root, target)
                if not os.path.isfile(full):
                    problems.append(f'{where}: {target} does not exist')
                elif section and not has_heading(full, section):
                    problems.append(f'{where}: {target} has no heading "{section}"')
            for m in README_QUOTED.finditer(text):
                if not has_heading(readme, m.group(1)):
                    problems.append(f'{where}: README.md has no heading "{m.group(1)}"')
            for m in README_BARE.finditer(text):
                if heading_prefix(readme, m.group(1)) is None:
                    problems.append(f'{where}: README.md has no heading that starts "{m.group(1)[:40]}"')
    return problems


def markdown_files(root):
    for rel in ('README.md', os.path.join('bench', 'README.md')):
        if os.path.isfile(os.path.join(root, rel)):
            yield os.path.join(root, rel)
    docs = os.path.join(root, 'docs')
    if os.path.isdir(docs):
        for f in sorted(os.listdir(docs)):
            if f.endswith('.md'):
                yield os.path.join(docs, f)


def check_markdown(root):
    problems = []
    for md in markdown_files(root):
        rel_md = os.path.relpath(md, root)
        with open(md, encoding='utf-8') as f:
            lines = f.read().split('\n')
        fenced = False
        for number, line in enumerate(lines, 1):
            if line.startswith('```'):
                fenced = not fenced
                continue
            if fenced:
                continue
            where = f'{rel_md}:{number}'
            for m in MD_LINK.finditer(line):
                target = m.group(1)
                if re.match(r'[a-z]+:', target):
                    continue
                path, _, anchor = target.partition('#')
                full = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
                rel = os.path.relpath(full, root)
                if rel in PENDING:
                    continue
                if not os.path.exists(full):
                    problems.append(f'{where}: link to {target}: {rel} does not exist')
                elif anchor and not any(slug(h) == anchor for h in headings(full)):
                    problems.append(f'{where}: link to {target}: no heading #{anchor} in {rel}')
            for m in BACKTICK.finditer(line):
                token = m.group(1).rstrip('.,;:')
                if not token.startswith(TOP_DIRS) or '/' not in token or re.search(r'[<>{}*]|\.\.\.', token):
                    continue
                if token.split('/')[0] not in TOP_DIRS:
                    continue
                if token in PENDING:
                    continue
                if not os.path.exists(os.path.join(root, token)):
                    problems.append(f'{where}: `{token}` does not exist')
    return problems


def self_check():
    """The scanner must find each bad reference of a synthetic tree, and
    nothing in its good ones."""
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, 'docs'))
        os.makedirs(os.path.join(root, 'core'))
        with open(os.path.join(root, 'README.md'), 'w') as f:
            f.write('# x\n\n## Quickstart\n\n[good](docs/a.md#rules) [bad](docs/b.md) [anchor](docs/a.md#nope)\n'
                    '`core/a.h` `core/missing.h`\n')
        with open(os.path.join(root, 'docs', 'a.md'), 'w') as f:
            f.write('# A\n\n## Rules\n\n```\n# Not a heading\n```\n')
        with open(os.path.join(root, 'core', 'a.h'), 'w') as f:
            f.write('// Good: docs/a.md, "Rules"; README "Quickstart"; README: Quickstart.\n'
                    'int x;\n'
                    '// Bad: docs/missing.md and docs/a.md "Not a heading" and\n'
                    '// README "Memory" and README: Robustness.\n')
        found = check_sources(root) + check_markdown(root)
    expected = ['docs/missing.md does not exist', 'has no heading "Not a heading"',
                'README.md has no heading "Memory"', 'no heading that starts "Robustness',
                'docs/b.md does not exist', 'no heading #nope', '`core/missing.h` does not exist']
    missing = [e for e in expected if not any(e in p for p in found)]
    if missing or len(found) != len(expected):
        print('self-check failed: expected', expected, 'found', found, file=sys.stderr)
        return False
    return True


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
    if not self_check():
        return 1
    problems = check_sources(root) + check_markdown(root)
    for p in problems:
        print(p)
    if problems:
        print(f'{len(problems)} documentation reference(s) do not resolve', file=sys.stderr)
        return 1
    print('every documentation reference resolves')
    return 0


if __name__ == '__main__':
    sys.exit(main())
