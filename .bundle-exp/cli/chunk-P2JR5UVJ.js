import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/infrastructure/config/yaml-source.ts
import { LineCounter, parseDocument } from "yaml";
var ConfigFileError = class extends CorrexError {
  constructor(file, message, options) {
    super("config_invalid", `${file}: ${message}`, options);
    this.file = file;
  }
  file;
};
function parseYamlSource(text, file) {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, {
    lineCounter,
    prettyErrors: false,
    uniqueKeys: true
  });
  const syntax = document.errors[0];
  if (syntax) {
    const at = lineCounter.linePos(syntax.pos[0]);
    throw new ConfigFileError(
      `${file}:${at.line}:${at.col}`,
      `invalid YAML: ${syntax.message.split("\n")[0]}`
    );
  }
  let data;
  try {
    data = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw new ConfigFileError(file, `cannot read: ${error.message}`, { cause: error });
  }
  return {
    file,
    data,
    locate(path) {
      for (let length = path.length; length >= 0; length--) {
        const node = document.getIn(path.slice(0, length), true);
        if (node?.range) {
          const at = lineCounter.linePos(node.range[0]);
          return `${file}:${at.line}:${at.col}`;
        }
      }
      return file;
    }
  };
}
function formatKeyPath(path) {
  return path.reduce(
    (text, key) => typeof key === "number" ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key),
    ""
  );
}

export {
  ConfigFileError,
  parseYamlSource,
  formatKeyPath
};
