import { LineCounter, parseDocument, type Document } from 'yaml';
import { CorrexError } from '../../core/base/correx-error.js';

/** A configuration file is not valid YAML, or a value in it fails its schema. Names file, line, column and key. */
export class ConfigFileError extends CorrexError {
  constructor(
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('config_invalid', `${file}: ${message}`, options);
  }
}

/** A parsed YAML file that can say where any key path is. */
export type YamlSource = {
  readonly file: string;
  readonly data: unknown;
  /** `file:line:col` of the node at `path`, or of its nearest existing parent. */
  locate(path: readonly PropertyKey[]): string;
};

/** Parses YAML text (duplicate keys and alias bombs refused); syntax errors name the line. */
export function parseYamlSource(text: string, file: string): YamlSource {
  const lineCounter = new LineCounter();
  const document: Document = parseDocument(text, {
    lineCounter,
    prettyErrors: false,
    uniqueKeys: true,
  });
  const syntax = document.errors[0];
  if (syntax) {
    const at = lineCounter.linePos(syntax.pos[0]);
    throw new ConfigFileError(
      `${file}:${at.line}:${at.col}`,
      `invalid YAML: ${syntax.message.split('\n')[0]}`,
    );
  }
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw new ConfigFileError(file, `cannot read: ${(error as Error).message}`, { cause: error });
  }
  return {
    file,
    data,
    locate(path) {
      for (let length = path.length; length >= 0; length--) {
        const node = document.getIn(path.slice(0, length), true) as
          { range?: [number, number, number] } | undefined;
        if (node?.range) {
          const at = lineCounter.linePos(node.range[0]);
          return `${file}:${at.line}:${at.col}`;
        }
      }
      return file;
    },
  };
}

/** `models[0].id` style rendering of a key path. */
export function formatKeyPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) =>
      typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key),
    '',
  );
}
