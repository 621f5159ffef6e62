/** A rule broken by one input field; `field` names it as the client sent it. */
export interface FieldError {
  readonly field: string;
  readonly message: string;
}
