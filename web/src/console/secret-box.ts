// A secret shown once (an API token, a webhook's signing secret): in a read-only field with a copy
// button and the warning that it will not be shown again.
import { h } from "../dom.ts";
import { addTexts, t } from "../i18n.ts";

addTexts({
  "secret.once": {
    nl: "Kopieer het nu: het wordt maar één keer getoond en is nergens terug te lezen.",
    en: "Copy it now: it is shown only once and cannot be read back anywhere.",
  },
});

export function secretBox(id: string, label: string, secret: string): HTMLElement {
  const field = h("input", { id, type: "text", readonly: true, class: "secret", spellcheck: "false" });
  field.value = secret;
  const copied = h("span", { role: "status", class: "copied" });
  const copy = h("button", { type: "button" }, t("console.copy"));
  copy.addEventListener("click", async () => {
    field.select();
    await navigator.clipboard.writeText(secret).catch(() => document.execCommand("copy"));
    copied.textContent = t("console.copied");
  });
  return h(
    "div",
    { class: "secret-box", role: "group", "aria-labelledby": `${id}-label` },
    h("label", { for: id, id: `${id}-label` }, label),
    h("div", { class: "secret-row" }, field, copy, copied),
    h("p", { class: "notice warning" }, t("secret.once")),
  );
}
