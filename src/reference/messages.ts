/**
 * The message reference, read from the one protocol file: every member of the
 * `Message` union with its route and its fields as declared. It parses the
 * source with the TypeScript compiler (a development dependency), so it runs
 * from a checkout (`npm run docs`, the tests), not from an installed package.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript-parser';
import type { Message } from '../kernel/protocol.ts';
import { routeOf } from '../kernel/routes.ts';
import { packagePath } from '../kernel/package-root.ts';
import { generatedBanner, table } from './markdown.ts';

/** One message type as declared: `Msg<'type', { fields }>`. */
interface Declared {
  type: string;
  fields: string[];
}

/** Every `Msg<'…', {…}>` alias of the protocol file, in its order. */
function declaredMessages(source: ts.SourceFile): Declared[] {
  const found: Declared[] = [];
  for (const statement of source.statements) {
    if (!ts.isTypeAliasDeclaration(statement) || !ts.isTypeReferenceNode(statement.type)) continue;
    const [literal, payload] = statement.type.typeArguments ?? [];
    if (statement.type.typeName.getText(source) !== 'Msg' || literal === undefined || !ts.isLiteralTypeNode(literal) || !ts.isStringLiteral(literal.literal)) continue;
    const fields =
      payload !== undefined && ts.isTypeLiteralNode(payload)
        ? payload.members.filter(ts.isPropertySignature).map((member) => `${member.name.getText(source)}${member.questionToken ? '?' : ''}: ${member.type?.getText(source).replace(/\s+/g, ' ') ?? 'unknown'}`)
        : [];
    found.push({ type: literal.literal.text, fields });
  }
  return found;
}

/** Who sends and receives a type, as the bus stamps it (role messages named by their role). */
function routeText(type: string): string {
  const sample = { type, problem: '<id>', role: '<role>' } as unknown as Message;
  const { from, to } = routeOf(sample);
  return `\`${from}\` → \`${to}\``;
}

/** The page: the envelope, then every message type with its route and fields. */
export function renderMessageReference(): string {
  const file = packagePath('src/kernel/protocol.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const rows = declaredMessages(source).map((message) => [`\`${message.type}\``, routeText(message.type), message.fields.map((field) => `\`${field}\``).join(', ')]);
  return [
    generatedBanner('src/kernel/protocol.ts and src/kernel/routes.ts'),
    '',
    '# Messages',
    '',
    'Every message is a member of one union in `src/kernel/protocol.ts`, carries `run`, `problem`, `iteration` and a deterministic `correlation` id, ' +
      'and travels on the bus in an envelope `{ seq, at, from, to, message }`; `tmas log DIR` prints them as JSONL. ' +
      'The route is stamped by `src/kernel/routes.ts`: `log` receives what no actor consumes, and a role\'s `<role>.requested` goes to `role:<role>`.',
    '',
    table(['type', 'from → to', 'fields (besides run, problem, iteration, correlation)'], rows),
    '',
  ].join('\n');
}
