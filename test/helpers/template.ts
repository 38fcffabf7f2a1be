/** The migrated database global-setup.ts builds once per run and every test file clones. */
export const TEMPLATE_DATABASE = "incidents_template";
