import type { Result } from '../../domain/shared/result.js';
import type { JsonObject, SpecFormat } from '../../domain/spec/spec-document.js';
import { token } from '../shared/token.js';

/** A spec as uploaded, checked to be valid Swagger 2.0. */
export interface ParsedSpec {
  readonly format: SpecFormat;
  /** The text as uploaded (a byte-order mark dropped). */
  readonly source: string;
  /** The parsed document, `$ref`s as written. */
  readonly document: JsonObject;
  /** `JSON.stringify(document)`, computed once. */
  readonly documentJson: string;
}

export type SpecError =
  /** Not UTF-8, or YAML/JSON that does not parse; line and column are 1-based. */
  | { readonly kind: 'Unparseable'; readonly message: string; readonly line: number | null; readonly column: number | null }
  /** Refused before or while parsing to protect the server: too many aliases, nested too deeply. */
  | { readonly kind: 'TooComplex'; readonly message: string }
  /** Parses, but is not a Swagger 2.0 document, or breaks its schema or rules. */
  | { readonly kind: 'InvalidSpec'; readonly errors: readonly { readonly path: string; readonly message: string }[] };

export interface SpecCodec {
  /** Parses YAML or JSON and validates it as Swagger 2.0, never reading external `$ref`s. */
  parse(bytes: Uint8Array): Promise<Result<ParsedSpec, SpecError>>;
  /** Serialises a document in the given format. */
  render(document: JsonObject, format: SpecFormat): string;
}
export const SpecCodec = token<SpecCodec>('SpecCodec');
