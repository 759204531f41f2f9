/** The benign calls of the issue (and their kin), as real agents write them. */
export const BENIGN_CALLS: readonly { readonly name: string; readonly command: string }[] = [
  { name: 'a heredoc into python3', command: "python3 <<'EOF'\nprint(sum(range(10)))\nEOF" },
  {
    name: 'cat heredoc into a new file',
    command: 'cat <<\'EOF\' > src/x.py\nprint("$HOME stays literal")\nEOF',
  },
  { name: 'cd into the workspace and run the tests', command: 'cd src && node --test' },
  { name: 'a for loop running a local tool', command: 'for f in src/*.py; do wc -l "$f"; done' },
  { name: 'python3 -c', command: 'python3 -c "print(6 * 7)"' },
  { name: 'pipes into head, grep and wc', command: 'ls src | head -n 5 | grep py | wc -l' },
  { name: 'stderr into the pipe', command: 'python3 src/a.py 2>&1 | tail -n 1' },
  { name: 'tree', command: 'tree src' },
  { name: 'du -sh', command: 'du -sh src' },
  { name: 'an if on a file test', command: 'if [ -f src/a.py ]; then cat src/a.py; fi' },
  { name: 'node -e', command: 'node -e "console.log(1 + 1)"' },
];
