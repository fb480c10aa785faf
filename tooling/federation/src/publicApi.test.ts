import { join } from 'node:path';
import ts from 'typescript';

test('the package exports defineApp, its argument type and the shared-package lists, nothing else', () => {
  const entry = join(__dirname, 'index.ts');
  const program = ts.createProgram([entry], { skipLibCheck: true, noEmit: true, types: [] });
  const checker = program.getTypeChecker();
  const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry)!)!);
  expect(exported.map((symbol) => symbol.name).sort()).toEqual(['AppDefinition', 'SHARED_PACKAGES', 'STRICT_PACKAGES', 'defineApp']);
}, 30_000);
