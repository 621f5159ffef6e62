import type { Result } from '../../domain/shared/result.js';
import type { JsonObject, SpecFormat, SpecSyntax } from '../../domain/spec/spec-document.js';
import { token } from '../shared/token.js';

/** A spec as uploaded, checked to be a valid document of its format. */
export interface ParsedSpec {
  /** Swagger 2.0, OpenAPI 3.0 or 3.1, as the document declares it. */
  readonly format: SpecFormat;
  readonly syntax: SpecSyntax;
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
  /** Parses, but is not a document of an accepted format, or breaks its format's schema or rules. */
  | {
      readonly kind: 'InvalidSpec';
      readonly errors: readonly { readonly path: string; readonly message: string }[];
      /** The format the document declares, when its validator refused it; undefined when no accepted format is declared. */
      readonly format?: SpecFormat | undefined;
    };

export interface SpecCodec {
  /**
   * Parses YAML or JSON and validates it as the format it declares (Swagger 2.0, OpenAPI 3.0 or
   * 3.1), never reading external `$ref`s.
   */
  parse(bytes: Uint8Array): Promise<Result<ParsedSpec, SpecError>>;
  /** Serialises a document as YAML or JSON. */
  render(document: JsonObject, syntax: SpecSyntax): string;
}
export const SpecCodec = token<SpecCodec>('SpecCodec');
