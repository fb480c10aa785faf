import { appendToArray, format } from './jsonEdit';

describe('appendToArray', () => {
  it('appends to a multi-line array with the indentation of its last element', () => {
    const text = '{\n  "uris": [\n    "a",\n    "b"\n  ],\n  "other": 1\n}\n';
    expect(appendToArray(text, ['uris'], 'c')).toBe('{\n  "uris": [\n    "a",\n    "b",\n    "c"\n  ],\n  "other": 1\n}\n');
  });

  it('appends to a one-line array on its line', () => {
    expect(appendToArray('{ "roles": ["a"] }', ['roles'], 'b')).toBe('{ "roles": ["a", "b"] }');
  });

  it('opens an empty array', () => {
    expect(appendToArray('{\n  "remotes": []\n}\n', ['remotes'], { name: 'x' })).toBe(
      '{\n  "remotes": [\n    {\n      "name": "x"\n    }\n  ]\n}\n',
    );
  });

  it('follows a path through arrays and keeps strings with brackets intact', () => {
    const text = '{ "clients": [ { "id": "a]", "uris": ["x"] }, { "id": "b", "uris": ["y"] } ] }';
    expect(JSON.parse(appendToArray(text, ['clients', 1, 'uris'], 'z')).clients[1].uris).toEqual(['y', 'z']);
  });

  it('says when the path is not an array', () => {
    expect(() => appendToArray('{ "a": 1 }', ['a'], 2)).toThrow('.a is not an array.');
    expect(() => appendToArray('{ "a": 1 }', ['b'], 2)).toThrow('.b does not exist.');
  });
});

describe('format', () => {
  it('keeps short arrays and objects on one line, as the hand-written files do', () => {
    expect(format({ name: 'x', roles: ['a'], clients: { r: ['v'] } }, '', true)).toBe(
      '{\n  "name": "x",\n  "roles": ["a"],\n  "clients": { "r": ["v"] }\n}',
    );
  });
});
