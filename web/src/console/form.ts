// The console's forms: each field has its label, an optional hint and its own error line (tied to
// the control by aria-describedby); the API's BAD_USER_INPUT message goes beside the field it names
// (the field lists the argument names the API uses for it), any other problem above the button. A
// lost connection or a 429 says so and offers "Try again"; nothing typed is cleared on an error.
import { ApiError } from "../api/client.ts";
import { h, replaceChildren } from "../dom.ts";
import { addTexts, t } from "../i18n.ts";

addTexts({
  "form.busy": { nl: "Bezig…", en: "Working…" },
  "form.retry": { nl: "Opnieuw proberen", en: "Try again" },
  "form.offline": {
    nl: "De dienst is niet bereikbaar. Controleer de verbinding en probeer het opnieuw.",
    en: "The service cannot be reached. Check the connection and try again.",
  },
});

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export interface FormField<C extends Control = Control> {
  element: HTMLElement;
  control: C;
  /** The argument names the API's messages use for this field ("password", "newPassword"). */
  apiNames: string[];
  setError(message: string | null): void;
}

interface FieldOptions {
  id: string;
  label: string;
  hint?: string;
  apiNames?: string[];
}

function fieldAround<C extends Control>(control: C, options: FieldOptions): FormField<C> {
  control.id = options.id;
  const hint = options.hint ? h("p", { class: "field-hint", id: `${options.id}-hint` }, options.hint) : null;
  const error = h("p", { class: "field-error", id: `${options.id}-error`, hidden: true });
  control.setAttribute("aria-describedby", [hint?.id, error.id].filter(Boolean).join(" "));
  const element = h("div", { class: "field" }, h("label", { for: options.id }, options.label), control, hint, error);
  return {
    element,
    control,
    apiNames: options.apiNames ?? [options.id],
    setError(message) {
      error.textContent = message ?? "";
      error.hidden = !message;
      if (message) control.setAttribute("aria-invalid", "true");
      else control.removeAttribute("aria-invalid");
    },
  };
}

export function textField(
  options: FieldOptions & {
    type?: string;
    autocomplete?: string;
    required?: boolean;
    value?: string;
    inputmode?: string;
    multiline?: boolean;
  },
): FormField<HTMLInputElement | HTMLTextAreaElement> {
  const control = options.multiline
    ? h("textarea", { rows: 3, required: options.required ?? false })
    : h("input", {
        type: options.type ?? "text",
        autocomplete: options.autocomplete ?? "off",
        required: options.required ?? false,
        inputmode: options.inputmode,
      });
  control.value = options.value ?? "";
  return fieldAround(control, options);
}

/** An e-mail address (labelled as such), as the account forms ask for it. */
export function emailField(id: string, autocomplete: "email" | "username" = "email") {
  return textField({
    id,
    label: t("console.email"),
    type: "email",
    autocomplete,
    required: true,
    apiNames: ["email", "address"],
  });
}

export function selectField(
  options: FieldOptions & { choices: Array<{ value: string; text: string }>; value?: string; multiple?: boolean },
): FormField<HTMLSelectElement> {
  const control = h(
    "select",
    { multiple: options.multiple ?? false, size: options.multiple ? Math.min(8, options.choices.length) : null },
    ...options.choices.map((choice) =>
      h("option", { value: choice.value, selected: choice.value === options.value }, choice.text),
    ),
  );
  return fieldAround(control, options);
}

/** The selected values of a select with `multiple`. */
export function selectedValues(select: HTMLSelectElement): string[] {
  return [...select.selectedOptions].map((option) => option.value);
}

function mentions(message: string, name: string): boolean {
  return new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "i").test(message);
}

export interface ConsoleForm {
  element: HTMLFormElement;
  /** A sentence for the person (role="status"), e.g. after success. */
  say(message: string): void;
}

/**
 * A form that runs `submit` (disabled while it runs) and shows its outcome: what `submit` returns
 * as a status line, or its error beside the field it concerns.
 */
export function consoleForm(options: {
  id: string;
  fields: FormField[];
  submitLabel: string;
  submit: () => Promise<string | void>;
  /** Shown between the fields and the button. */
  extra?: Node[];
  className?: string;
  /** The form's button as the screen's main action (default), or a plain one (a rename among rows). */
  secondary?: boolean;
}): ConsoleForm {
  const button = h("button", { type: "submit", class: options.secondary ? null : "primary" }, options.submitLabel);
  const problem = h("div", { class: "form-error", id: `${options.id}-problem`, role: "alert" });
  const status = h("p", { class: "form-status", role: "status" });
  const element = h(
    "form",
    { id: options.id, class: options.className ?? "console-form", novalidate: true },
    ...options.fields.map((field) => field.element),
    ...(options.extra ?? []),
    problem,
    button,
    status,
  );

  async function run(): Promise<void> {
    for (const field of options.fields) field.setError(null);
    replaceChildren(problem);
    status.textContent = "";
    // The browser's own checks first (required, type=email), said beside each field.
    const invalid = options.fields.find((field) => !field.control.checkValidity());
    if (invalid) {
      for (const field of options.fields)
        if (!field.control.checkValidity()) field.setError(field.control.validationMessage);
      invalid.control.focus();
      return;
    }
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    try {
      const done = await options.submit();
      if (done) status.textContent = done;
    } catch (error) {
      showError(error);
    } finally {
      button.disabled = false;
      button.removeAttribute("aria-busy");
    }
  }

  function showError(error: unknown): void {
    const apiError = error instanceof ApiError ? error : null;
    const message = error instanceof Error ? error.message : String(error);
    if (
      apiError &&
      (apiError.code === "NETWORK_ERROR" || apiError.status === 429 || apiError.code === "RATE_LIMITED")
    ) {
      const retry = h("button", { type: "button", onclick: () => void run() }, t("form.retry"));
      replaceChildren(problem, h("p", {}, apiError.code === "NETWORK_ERROR" ? t("form.offline") : message), retry);
      return;
    }
    const field = options.fields.find((candidate) => candidate.apiNames.some((name) => mentions(message, name)));
    if (field) {
      field.setError(message);
      field.control.focus();
    } else replaceChildren(problem, h("p", {}, message));
  }

  element.addEventListener("submit", (event) => {
    event.preventDefault();
    void run();
  });
  return { element, say: (message) => (status.textContent = message) };
}

/** A screen's line for outcomes in words (role="status"), and how to say one. */
export function statusLine(): { element: HTMLParagraphElement; say(message: string): void } {
  const element = h("p", { class: "form-status", role: "status" });
  return { element, say: (message) => (element.textContent = message) };
}

/**
 * A button that runs one action (sign a session out, send a test, switch): disabled while it runs;
 * what goes wrong is reported (a status line of the screen), never lost.
 */
export function actionButton(
  label: string,
  run: () => Promise<void>,
  report: (message: string) => void,
  options: { ariaLabel?: string; className?: string } = {},
): HTMLButtonElement {
  const button = h("button", { type: "button", class: options.className, "aria-label": options.ariaLabel }, label);
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await run();
    } catch (error) {
      report(
        error instanceof ApiError && error.code === "NETWORK_ERROR" ? t("form.offline") : (error as Error).message,
      );
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

/**
 * A set of checkboxes as one field (a monitor's channels, a screen's monitors): a legend, a hint
 * (or what to do when there is nothing to tick) and one error line for the set. The first box takes
 * the focus when the API names the field; a hidden input stands in when there are none.
 */
export function checkboxesField(options: {
  id: string;
  legend: string;
  hint: Array<Node | string>;
  choices: Array<{ value: string; text: string }>;
  chosen: string[];
  apiNames: string[];
  className?: string;
}): FormField<HTMLInputElement> & { values(): string[] } {
  const error = h("p", { class: "field-error", id: `${options.id}-error`, hidden: true });
  const boxes = options.choices.map((choice) =>
    h("input", {
      type: "checkbox",
      value: choice.value,
      checked: options.chosen.includes(choice.value),
      "aria-describedby": error.id,
    }),
  );
  const element = h(
    "fieldset",
    { class: ["field checkboxes", options.className].filter(Boolean).join(" "), id: options.id },
    h("legend", {}, options.legend),
    h("p", { class: "field-hint" }, ...options.hint),
    ...options.choices.map((choice, index) => h("label", { class: "checkbox" }, boxes[index], ` ${choice.text}`)),
    error,
  );
  return {
    element,
    control: boxes[0] ?? h("input", { type: "hidden" }),
    apiNames: options.apiNames,
    setError(message) {
      error.textContent = message ?? "";
      error.hidden = !message;
    },
    values: () => boxes.filter((box) => box.checked).map((box) => box.value),
  };
}
