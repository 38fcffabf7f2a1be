// One criterion of a monitor's form: its field, and how its value is read from and written to the
// query. The criteria of every type (criteria-fields.ts) and the areas (area-picker.ts) are made to it.
import type { FormField } from "../form.ts";

export interface Criterion {
  field: FormField;
  read(): unknown;
  fill(value: unknown): void;
  remove?(): void;
}
