import { describe, expect, it } from 'vitest';
import { layeredRecord, layeredSet } from '../../../base/layered-record.js';
import {
  pathOntoFork,
  prefixPathsInsideFork,
  rebaseableRoots,
  rebasedOntoFork,
} from './fork-paths.js';

const parent = '/w/project';
const fork = '/w/project-fork-1';

describe('a fork reads its prefix paths in its own workspace', () => {
  it('moves only normal paths inside the parent workspace', () => {
    expect(pathOntoFork('/w/project', parent, fork)).toBe(fork);
    expect(pathOntoFork('/w/project/src/a.js', parent, fork)).toBe(`${fork}/src/a.js`);
    // Outside the parent's workspace, a sibling sharing its name's start, a relative path, and
    // a path whose `..` may leave the workspace: never moved, so outside stays outside.
    expect(pathOntoFork('/w/notes.txt', parent, fork)).toBeNull();
    expect(pathOntoFork('/w/project2/a.js', parent, fork)).toBeNull();
    expect(pathOntoFork('src/a.js', parent, fork)).toBeNull();
    expect(pathOntoFork('/w/project/../notes.txt', parent, fork)).toBeNull();
    expect(pathOntoFork('/w/project/./a.js', parent, fork)).toBeNull();
    expect(pathOntoFork('/w/project//a.js', parent, fork)).toBeNull();
  });

  it('rebases strings and record keys at any depth, leaving the rest as it is', () => {
    const state = {
      workspace: fork,
      observations: { [`${parent}/a.js`]: { path: `${parent}/a.js`, realPath: '/etc/passwd' } },
      outside: ['/w/notes.txt', 'src/a.js', 7, null, true],
      text: `read ${parent}/a.js`,
    };
    expect(rebasedOntoFork(state, parent, fork)).toEqual({
      workspace: fork,
      observations: { [`${fork}/a.js`]: { path: `${fork}/a.js`, realPath: '/etc/passwd' } },
      outside: ['/w/notes.txt', 'src/a.js', 7, null, true],
      // Text is not a path: only a whole string is read as one.
      text: `read ${parent}/a.js`,
    });
  });

  it('counts a layered record again where a moved key met one already there', () => {
    let record = layeredRecord<number>({ [`${fork}/a.js`]: 1 });
    record = layeredSet(record, `${parent}/a.js`, 2);
    expect(rebasedOntoFork(record, parent, fork)).toEqual({
      base: { [`${fork}/a.js`]: 1 },
      baseSize: 1,
      recent: { [`${fork}/a.js`]: 2 },
      recentSize: 1,
    });
    // In one object the moved path wins: it is what the fork's copy holds.
    expect(
      rebasedOntoFork({ [`${fork}/a.js`]: 'outside', [`${parent}/a.js`]: 'inside' }, parent, fork),
    ).toEqual({ [`${fork}/a.js`]: 'inside' });
  });

  it('leaves nested, equal or root workspaces alone', () => {
    expect(rebaseableRoots(parent, fork)).toBe(true);
    expect(rebaseableRoots(parent, `${parent}/fork`)).toBe(false);
    expect(rebaseableRoots(`${fork}/inner`, fork)).toBe(false);
    expect(rebaseableRoots(parent, parent)).toBe(false);
    expect(rebaseableRoots('/', fork)).toBe(false);
    const state = { path: `${parent}/a.js` };
    expect(rebasedOntoFork(state, parent, `${parent}/fork`)).toBe(state);
  });

  it('names the paths the parent recorded outside its workspace inside the fork folder', () => {
    const payloads = [
      { files: [{ path: `${parent}/a.js` }, { path: `${fork}/b.txt` }] },
      { [`${fork}/c.txt`]: { path: '/w/notes.txt' } },
    ];
    expect(prefixPathsInsideFork(payloads, parent, fork)).toEqual([
      `${fork}/b.txt`,
      `${fork}/c.txt`,
    ]);
    expect(prefixPathsInsideFork([{ path: `${parent}/a.js` }], parent, fork)).toEqual([]);
  });
});
