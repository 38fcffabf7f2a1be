// A question before something that cannot be undone (revoke a token, delete a channel): a modal
// <dialog>, which the browser makes keyboard- and screen-reader-friendly (focus moves into it,
// Escape cancels, focus returns to the button that opened it).
import { h } from "../dom.ts";
import { t } from "../i18n.ts";

export function confirmDialog(question: string, confirmLabel: string): Promise<boolean> {
  return new Promise((resolve) => {
    const opener = document.activeElement as HTMLElement | null;
    const confirm = h("button", { type: "button", class: "danger" }, confirmLabel);
    const cancel = h("button", { type: "button" }, t("console.cancel"));
    const text = h("p", { id: "confirm-question" }, question);
    const dialog = h(
      "dialog",
      { class: "confirm", "aria-labelledby": "confirm-question" },
      text,
      h("p", {}, confirm, cancel),
    );
    const close = (answer: boolean) => {
      dialog.close();
      dialog.remove();
      opener?.focus();
      resolve(answer);
    };
    confirm.addEventListener("click", () => close(true));
    cancel.addEventListener("click", () => close(false));
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      close(false);
    });
    document.body.append(dialog);
    dialog.showModal();
    cancel.focus();
  });
}
