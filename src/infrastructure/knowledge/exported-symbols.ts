import { createRequire } from 'node:module';
import type * as TypeScript from 'typescript';

let loaded: typeof TypeScript | undefined;
/** The compiler is large (seconds to load on a busy machine): loaded on the first survey only. */
function typescript(): typeof TypeScript {
  loaded ??= createRequire(import.meta.url)('typescript') as typeof TypeScript;
  return loaded;
}

/**
 * The names a TypeScript or JavaScript file exports, read with the TypeScript compiler's
 * parser (syntax only: no type checking, no module resolution, so it is fast and reads nothing
 * else). Kinds are shown the way a reader scans an API: `function parse`, `class Store`.
 */
export function exportedSymbols(fileName: string, text: string): string[] {
  const ts = typescript();
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const names: string[] = [];
  const exported = (node: TypeScript.Node) =>
    ts.canHaveModifiers(node) &&
    (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && exported(statement) && statement.name)
      names.push(`function ${statement.name.text}`);
    else if (ts.isClassDeclaration(statement) && exported(statement) && statement.name)
      names.push(`class ${statement.name.text}`);
    else if (ts.isInterfaceDeclaration(statement) && exported(statement))
      names.push(`interface ${statement.name.text}`);
    else if (ts.isTypeAliasDeclaration(statement) && exported(statement))
      names.push(`type ${statement.name.text}`);
    else if (ts.isEnumDeclaration(statement) && exported(statement))
      names.push(`enum ${statement.name.text}`);
    else if (ts.isVariableStatement(statement) && exported(statement)) {
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) names.push(`const ${declaration.name.text}`);
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.exportClause &&
      ts.isNamedExports(statement.exportClause)
    ) {
      for (const element of statement.exportClause.elements) names.push(element.name.text);
    } else if (ts.isExportAssignment(statement)) names.push('default');
  }
  return names;
}
